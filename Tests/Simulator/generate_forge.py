#!/usr/bin/env python3
"""Writes a deterministic forge-state file (docs/forge-state.md) of any size, for the simulator.

  python3 generate_forge.py --repos 20 --issues 500 --mrs 100 --builds 300 --seed 1 \
      --now 2026-11-29T12:00:00.000Z -o forge.json

--issues, --mrs and --builds are per repository. The mix is meant to look like a real forge to a
triage bot: fresh and long-idle issues (some already labelled stale, some closed), labels,
milestones (releases with issues, overdue sprints without, one org milestone per owner), an open
dependency-tracking issue, stacks of two or three merge requests (some whose parent already merged
and were retargeted with the server's system comment), fork merge requests, and builds with older
pending/running builds superseded by newer ones on the same ref and job. The same arguments always
give the same bytes. Python 3 standard library only.
"""

import argparse
import datetime as dt
import hashlib
import json
import random
import sys

OWNERS = ["krz", "alice", "ops", "cmc", "infra"]
NAMES = ["gitbay", "runner", "docs", "web", "cli", "mirror", "pages", "store", "hooks", "ios",
         "search", "mail", "ci-images", "themes", "notify", "deploy", "audit", "bench", "wiki", "proxy"]
USERS = ["alice", "cmc", "bob", "dana", "erin", "frank", "gwen", "hiro"]
LABELS = [("bug", "#cf222e"), ("docs", "#0969da"), ("ci", "#1a7f37"), ("enhancement", "#8250df"),
          ("question", None), ("needs-triage", "#bf5b16"), ("good first issue", "#0b6c80"), ("stale", "#9a6700")]
WORDS = ["cursor", "runner", "heartbeat", "explore", "paging", "label", "milestone", "webhook", "mirror", "build",
         "cancel", "retarget", "stack", "token", "limit", "gzip", "etag", "timeout", "archive", "fork", "search",
         "feed", "digest", "reaper", "queue", "gate", "review", "ssh", "tag", "release"]
JOBS = ["test", "lint", "build"]


def fmt_ms(d):
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def fmt_s(d):
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_now(s):
    d = dt.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return d.astimezone(dt.timezone.utc) if d.tzinfo else d.replace(tzinfo=dt.timezone.utc)


class Gen:
    """One seeded generator: every random choice and every sha comes from here, in a fixed order."""

    def __init__(self, seed, now):
        self.rng = random.Random(seed)
        self.seed = seed
        self.now = now
        self.counter = 0

    def sha(self):
        self.counter += 1
        return hashlib.sha1(("%d:%d" % (self.seed, self.counter)).encode()).hexdigest()

    def ago(self, lo_days, hi_days):
        secs = self.rng.uniform(lo_days * 86400, hi_days * 86400)
        d = self.now - dt.timedelta(seconds=secs)
        return d.replace(microsecond=(d.microsecond // 1000) * 1000)

    def between(self, a, b):
        if b <= a:
            return a
        d = a + dt.timedelta(seconds=self.rng.uniform(0, (b - a).total_seconds()))
        return d.replace(microsecond=(d.microsecond // 1000) * 1000)

    def title(self):
        w = self.rng.sample(WORDS, 3)
        return "%s: %s breaks %s" % (w[0], w[1], w[2])


def repo_paths(n):
    out = []
    for i in range(n):
        owner = OWNERS[i % len(OWNERS)]
        name = NAMES[i % len(NAMES)]
        if i >= len(NAMES):
            name = "%s-%d" % (name, i // len(NAMES))
        out.append("%s/%s" % (owner, name))
    return out


def day(now, days):
    """The calendar day `days` after now (before, when negative), as a milestone's `due`."""
    return (now + dt.timedelta(days=days)).strftime("%Y-%m-%d")


def org_milestone(seed, owner, now):
    """The owner's org milestone, long overdue and empty; every repository of the owner repeats it."""
    rng = random.Random("org-milestone:%d:%s" % (seed, owner))
    return {"title": "Q3 roadmap", "state": "open", "due": day(now, -rng.randint(30, 120)),
            "description": "org-wide plan", "org": True}


def milestone_list(seed, path, releases, org, now):
    """A repository's milestones in gitbay's list order (the org's first, then by due date, undated
    last, then by title).

    `releases` are the ones issues were drawn against; they gain due dates (two shipped and closed,
    one overdue, one ahead). Sprints and hotfixes nothing points at are added, most of them more
    than a week overdue. Every draw comes from a generator of its own, seeded from the seed and the
    path, so the rest of the forge is the same bytes as without milestones."""
    rng = random.Random("milestones:%d:%s" % (seed, path))
    dues = {1: -rng.randint(150, 200), 2: -rng.randint(60, 120), 3: -rng.randint(8, 30), 4: rng.randint(20, 60)}
    out = [org]
    for ms in releases:
        k = int(ms["title"].split(".")[1])
        out.append(dict(ms, due=day(now, dues[k]), description="release %s" % ms["title"]))
    for k in range(rng.randint(1, 3)):
        out.append({"title": "sprint %d" % (k + 1), "state": "open", "due": day(now, -rng.randint(8, 60))})
    if rng.random() < 0.5:
        out.append({"title": "hotfix", "state": "open", "due": day(now, -rng.randint(1, 7))})
    if rng.random() < 0.5:
        out.append({"title": "Backlog", "state": "open"})
    return sorted(out, key=lambda ms: (not ms.get("org"), "due" not in ms, ms.get("due", ""), ms["title"]))


def make_issues(g, count, milestones, me):
    issues = []
    labels = [n for n, _ in LABELS if n != "stale"]
    for n in range(1, count + 1):
        rng = g.rng
        created = g.ago(1, 730)
        kind = rng.random()
        if kind < 0.45:
            updated = g.between(created, g.now - dt.timedelta(days=60))  # long idle
        elif kind < 0.6:
            updated = g.between(created, g.now - dt.timedelta(days=20))
        else:
            updated = g.between(max(created, g.now - dt.timedelta(days=14)), g.now)
        it = {"number": n, "title": g.title(), "state": "closed" if rng.random() < 0.3 else "open",
              "author": rng.choice(USERS), "body": "Steps: %s." % " ".join(rng.sample(WORDS, 6)),
              "body_format": "md", "created_at": fmt_ms(created)}
        labs = sorted(rng.sample(labels, rng.choice([0, 0, 1, 1, 1, 2, 3])))
        idle_days = (g.now - updated).days
        if idle_days > 60 and rng.random() < 0.3:
            labs.append("stale")
        if labs:
            it["labels"] = sorted(labs)
        if rng.random() < 0.3:
            it["assignees"] = sorted(rng.sample(USERS, rng.choice([1, 1, 2])))
        if milestones and rng.random() < 0.35:
            it["milestone"] = rng.choice(milestones)["title"]
        comments = []
        ncom = rng.choice([0, 0, 1, 1, 2, 3])
        last = created
        for k in range(ncom):
            at = updated if k == ncom - 1 else g.between(created, updated)
            last = max(last, at)
            comments.append({"author": rng.choice(USERS), "body": "Any news on %s?" % rng.choice(WORDS),
                             "body_format": "md", "created_at": fmt_ms(at), "kind": "comment"})
        if "stale" in labs and rng.random() < 0.5:
            comments.append({"author": me, "body": "No activity for 60 days; marking stale.", "body_format": "md",
                             "created_at": fmt_ms(updated), "kind": "comment"})
        if rng.random() < 0.1:
            comments.append({"author": "system", "body": "mentioned in a commit on main",
                             "created_at": fmt_ms(g.between(updated, g.now)), "kind": "system"})
        comments.sort(key=lambda c: c["created_at"])
        if comments:
            it["comments"] = comments
        it["updated_at"] = fmt_ms(updated)
        issues.append(it)
    return issues


def make_mrs(g, count, path, branches):
    rng = g.rng
    mrs = []
    n = 0
    while n < count:
        n += 1
        created = g.ago(0.5, 200)
        roll = rng.random()
        if roll < 0.25 and n + 1 <= count:
            depth = 3 if rng.random() < 0.3 and n + 2 <= count else 2
            parent_merged = rng.random() < 0.3
            target = "main"
            stack = []
            for level in range(depth):
                num = n + level
                src = "stack-%d-%d" % (num, level + 1)
                sha = g.sha()
                branches[src] = sha
                m = {"number": num, "title": g.title(), "state": "open", "author": rng.choice(USERS),
                     "source": src, "target_ref": target, "head_sha": sha,
                     "created_at": fmt_ms(g.between(created, created + dt.timedelta(hours=level + 1)))}
                if level > 0 and rng.random() < 0.7:
                    m["draft"] = True
                stack.append(m)
                target = src
            if parent_merged:
                base = stack[0]
                merged_at = g.between(dt.datetime.fromisoformat(base["created_at"].replace("Z", "+00:00")), g.now)
                base.update({"state": "merged", "merged_at": fmt_ms(merged_at), "merged_by": rng.choice(USERS)})
                branches["main"] = base["head_sha"]
                child = stack[1]
                child["target_ref"] = base["target_ref"]
                child["comments"] = [{"author": "system", "kind": "system", "created_at": fmt_ms(merged_at),
                                      "body": "retargeted from %s to %s: !%d merged"
                                              % (base["source"], base["target_ref"], base["number"])}]
            mrs.extend(stack)
            n += depth - 1
            continue
        fork = roll < 0.35
        sha = g.sha()
        if fork:
            src = "%s/%s:%s" % (rng.choice(USERS), path.split("/")[1], rng.choice(WORDS))
        else:
            src = "%s-%d" % (rng.choice(WORDS), n)
            branches[src] = sha
        state = rng.choices(["open", "merged", "closed", "source_gone"], [55, 30, 12, 3])[0]
        m = {"number": n, "title": g.title(), "state": state, "author": rng.choice(USERS), "source": src,
             "target_ref": "main", "head_sha": sha, "created_at": fmt_ms(created)}
        if state == "open" and rng.random() < 0.25:
            m["draft"] = True
        if state == "merged":
            m.update({"merged_at": fmt_ms(g.between(created, g.now)), "merged_by": rng.choice(USERS)})
        if state == "closed":
            m.update({"closed_at": fmt_ms(g.between(created, g.now)), "closed_by": m["author"]})
        mrs.append(m)
    for m in mrs:
        if rng.random() < 0.3:
            m["labels"] = sorted(rng.sample(["ci", "docs", "bug", "enhancement"], rng.choice([1, 2])))
        if m["state"] in ("open", "source_gone"):
            st = rng.choices(["success", "pending", "failure"], [70, 20, 10])[0]
            m["checks"] = [{"context": "ci/test", "state": st, "updated_at": m["created_at"]}]
            if rng.random() < 0.6:
                m["reviews"] = [{"reviewer": rng.choice(USERS), "verdict": rng.choice(["approve", "approve", "comment"]),
                                 "stale": False, "counts": True, "created_at": m["created_at"]}]
        m["commits"] = [{"sha": m["head_sha"], "subject": m["title"]}]
        m["updated_at"] = m.get("merged_at") or m.get("closed_at") or m["created_at"]
    return mrs


def make_builds(g, count, branches, mrs):
    """Builds in pushes: each push of a ref queues every job; older pushes of a busy ref stay pending/running."""
    rng = g.rng
    refs = [r for r in sorted(branches) if r != "main"] or ["main"]
    pushes = []
    t = g.now - dt.timedelta(days=30)
    while sum(len(p[2]) for p in pushes) < count:
        ref = "main" if rng.random() < 0.2 else rng.choice(refs)
        t = t + dt.timedelta(seconds=rng.uniform(60, 3 * 86400 * 30 / max(1, count)))
        pushes.append((ref, t, list(JOBS)))
    latest = {}
    for i, (ref, _, _) in enumerate(pushes):
        latest[ref] = i
    builds = []
    num = 1000
    fork_heads = {m["number"]: m["head_sha"] for m in mrs if ":" in m["source"] and m["state"] == "open"}
    for i, (ref, t, jobs) in enumerate(pushes):
        newest = latest[ref] == i
        sha = branches.get(ref) if newest and ref in branches else g.sha()
        recent = (g.now - t).total_seconds() < 3 * 3600
        for job in jobs:
            if len(builds) >= count:
                break
            num += 1
            if recent or (not newest and rng.random() < 0.15):
                status = rng.choice(["pending", "running"])  # a superseded or still-queued build
            else:
                status = rng.choices(["success", "failure", "cancelled"], [80, 15, 5])[0]
            b = {"number": num, "job": job, "status": status, "sha": sha, "ref": ref, "created_at": fmt_s(t),
                 "subject": "%s: %s" % (ref, rng.choice(WORDS))}
            if status not in ("pending", "running"):
                dur = int(rng.uniform(30, 600))
                b["finished_at"] = fmt_s(t + dt.timedelta(seconds=dur))
                b["duration_s"] = dur
                if status == "failure":
                    b["failed_step"] = rng.randint(1, 4)
                    b["failed_reason"] = "exit 1"
            builds.append(b)
    for n, sha in sorted(fork_heads.items()):
        num += 1
        builds.append({"number": num, "job": "test", "status": "pending", "sha": sha,
                       "ref": "refs/merge-requests/%d/head" % n, "created_at": fmt_s(g.now - dt.timedelta(hours=1))})
    return builds[-count:] if count else []


# A repository's own rules file (docs/rules.md, "A repository's own rules"): the first repository
# that carries one also keeps the organisation's base, which the others extend.
RULES_BASE = """rules:
  - name: stale-bugs
    on: issues
    when: [state = open, labels has bug, quiet > 45d]
    do: [{add-label: stale}]
"""
RULES_OWN = """%(extends)srules:
  - name: welcome
    on: issues
    when: [state = open, labels lacks triage, quiet > 400d]
    do: [{add-label: triage}]
"""


def rules_files(g, repo, base, sha):
    """Puts .gitbay/bot.yml (extending `base`, a reference, when given) on `repo`'s default branch."""
    files = {".gitbay/bot.yml": RULES_OWN % {"extends": "extends: %s\n" % base if base else ""}}
    if not base:
        files[".gitbay/base.yml"] = RULES_BASE
    repo["commits"] = {sha: {"files": files}}


def generate(repos, issues, mrs, builds, seed, now_text, me, rules=0):
    now = parse_now(now_text)
    g = Gen(seed, now)
    doc = {"format": "gitbay-forge-state/1", "now": fmt_ms(now), "me": me, "users": [me] + USERS + ["gitbay"],
           "repos": []}
    org_milestones = {owner: org_milestone(seed, owner, now) for owner in OWNERS}
    for idx, path in enumerate(repo_paths(repos)):
        milestones = [{"title": "v1.%d.0" % k, "state": "closed" if k < 3 else "open"} for k in range(1, 5)]
        branches = {"main": g.sha()}
        labels = [{"name": n, **({"color": c} if c else {})} for n, c in LABELS]
        labels.append({"name": "security", "color": "#cf222e", "org": True})
        repo = {"path": path, "visibility": "private" if idx % 7 == 6 else "public",
                "description": "generated repository %d" % (idx + 1), "default_branch": "main",
                "labels": labels,
                "milestones": milestone_list(seed, path, milestones, org_milestones[path.split("/")[0]], now)}
        if idx % 11 == 10:
            repo["archived"] = True
        repo["issues"] = make_issues(g, issues, milestones, me)
        repo["merge_requests"] = make_mrs(g, mrs, path, branches)
        repo["builds"] = make_builds(g, builds, branches, repo["merge_requests"])
        repo["branches"] = dict(sorted(branches.items()))
        repo["tags"] = {"v1.2.0": g.sha()}
        # `rules` repositories spread evenly carry their own rules file, the first of them the base.
        if rules and idx % max(1, repos // rules) == 0 and idx // max(1, repos // rules) < rules:
            first = repo_paths(1)[0]
            rules_files(g, repo, None if idx == 0 else first + ":.gitbay/base.yml", branches["main"])
        if issues and idx % 3 == 0:
            dep = repo["issues"][0]
            dep.update({"title": "Dependency updates", "state": "open", "author": "gitbay",
                        "body": "Some dependencies are behind.", "body_format": "md"})
            for k in ("labels", "assignees", "milestone", "comments"):
                dep.pop(k, None)
            dep["updated_at"] = max(dep["created_at"], fmt_ms(now - dt.timedelta(days=90)))
            repo["deps"] = {"enabled": True, "issue_number": dep["number"],
                            "last_check": fmt_ms(now - dt.timedelta(hours=6)),
                            "behind": [{"ecosystem": "go", "name": "golang.org/x/net", "current": "v0.30.0",
                                        "latest": "v0.33.0"}]}
        doc["repos"].append(repo)
    return doc


def main(argv=None):
    ap = argparse.ArgumentParser(description="write a generated gitbay forge-state file")
    ap.add_argument("--repos", type=int, default=3)
    ap.add_argument("--issues", type=int, default=50, help="issues per repository")
    ap.add_argument("--mrs", type=int, default=10, help="merge requests per repository")
    ap.add_argument("--builds", type=int, default=30, help="builds per repository")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--now", default="2026-11-29T12:00:00.000Z")
    ap.add_argument("--me", default="triage-bot")
    ap.add_argument("--rules-files", type=int, default=0,
                    help="repositories carrying .gitbay/bot.yml (the first also the base the others extend)")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args(argv)
    doc = generate(a.repos, a.issues, a.mrs, a.builds, a.seed, a.now, a.me, a.rules_files)
    text = json.dumps(doc, indent=1, sort_keys=True) + "\n"
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
