#!/usr/bin/env python3
"""A stand-in for a gitbay server's JSON API, served over real HTTP on loopback.

It follows gitbay's own source (github.com/krazywarez/gitbay): each behaviour names the gitbay file
and function it comes from, and docs/gitbay-conformance.md lists them with the test that pins each
one; `guess:` marks what the source could not settle. It answers literal JSON built here, never
from the bot's Swift models: a field the Swift side spells wrong therefore fails against it the
way it would against the real server. The forge it serves is a forge-state file
(docs/forge-state.md).

Usage:
  python3 gitbay_sim.py --state FILE [--host 127.0.0.1] [--port 0] [--token TOKEN]
      [--user-token NAME=TOKEN ...] [--read-only-token TOKEN] [--token-expires TIMESTAMP] [--journal FILE]
      [--api-rate 120] [--write-rate 60] [--time-scale 1.0] [--clock running|frozen]
      [--seed N] [--fault SPEC ...] [--webhook-retry-base 30] [--webhook-allow-local]
      [--max-blob-bytes 104857600]

The first line of stdout is the base URL; the server then runs until SIGTERM or SIGINT.
Python 3 standard library only.

Webhooks are served as gitbay serves them: the five `webhook` commands, and a delivery thread that
every 2 s (divided by --time-scale) POSTs up to 20 due deliveries, signed with the hook's secret,
retrying a failed one after --webhook-retry-base seconds doubling per attempt (divided by
--time-scale), and dead-lettering it at the fifth failed attempt. `webhook add` refuses loopback
and private targets unless --webhook-allow-local is given, so a test receiver on 127.0.0.1 needs it.
For tests:
  POST /_sim/control {"deliveries_paused": true|false}  stops (and restarts) taking due
      deliveries: they stay pending, as when gitbay's deliverer is behind or down.
  GET /_sim/stats  "webhooks": {"attempted", "delivered", "failed", "dead_lettered", "ticks"}, counts
      of delivery attempts, of those that delivered, of those that failed, of deliveries given up,
      and of the thread's ticks done (paused or not): a test waits for ticks to show that a tick
      sent nothing, never for seconds.
The thread is a daemon with a stop event: it stops with the server.

Every head a merge request has had is kept as gitbay's mr_heads rows (`revisions` in the file,
`mr revisions` on the wire); the `push` control records one for each MR whose head it moves,
whoever the pusher. `repo access revoke` takes an account's own grant away, and the merge queue
asks whether the queuer, and a pusher, may still write (control/mergequeue.go).

Files: `repo tree` and `repo cat` read each repository's `commits`, a snapshot of the files at each
commit, with git's own object ids (control/read.go); --max-blob-bytes is gitbay's [limits]
max_blob_bytes, where `repo cat` cuts a file.

--token-expires gives the main token an expiry (also `POST /_sim/control {"token_expires": TS|null}`):
it cannot queue a merge (mr merge --when-ready, exit 4, as gitbay's mergequeue.go queueMerge
refuses any expiring credential) and is refused with 401 once the expiry has passed. A queued
merge remembers the token it was queued with; `revoke`, an expiry passed or `read_only` dequeue
it at its next attempt (queueCredentialLapsed).
"""

import argparse
import base64
import datetime as dt
import difflib
import gzip
import hashlib
import hmac
import http.client
import ipaddress
import json
import math
import random
import re
import signal
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

FORMAT = "gitbay-forge-state/1"
PROTOCOL_VERSION = 1
MAX_API_BODY = 1 << 20
MAX_BODY_BYTES = 64 << 10
MAX_PAGE = 200
QUERY_DEFAULT_LIMIT = 50
BUILD_DEFAULT_LIMIT = 50
DEFAULT_TOKEN = "gb_" + "0" * 64

EXIT_OK, EXIT_FAILURE, EXIT_USAGE, EXIT_NOT_FOUND, EXIT_DENIED, EXIT_PROTOCOL = 0, 1, 2, 3, 4, 5


def status_for_exit(code):
    """HTTP status for an exit code, as gitbay's API maps them."""
    return {0: 200, 2: 400, 3: 404, 4: 403}.get(code, 500)


class CmdError(Exception):
    """A command refusal: an exit code and the message the envelope carries."""

    def __init__(self, code, msg):
        super().__init__(msg)
        self.code = code
        self.msg = msg


# ---------------------------------------------------------------------------------------------
# Time


def parse_ts(s):
    """Parses a gitbay timestamp (ISO 8601, fractional seconds optional, Z or offset)."""
    if not isinstance(s, str) or not s:
        raise ValueError("timestamp must be a non-empty string")
    t = s.strip()
    if t.endswith("Z") or t.endswith("z"):
        t = t[:-1] + "+00:00"
    m = re.match(r"^(.*T\d\d:\d\d:\d\d)(\.\d+)?(.*)$", t)
    if m and m.group(2) and len(m.group(2)) > 7:
        t = m.group(1) + m.group(2)[:7] + m.group(3)
    d = dt.datetime.fromisoformat(t)
    if d.tzinfo is None:
        d = d.replace(tzinfo=dt.timezone.utc)
    return d.astimezone(dt.timezone.utc)


def fmt_ms(d):
    """The store's millisecond format, 2026-08-24T01:00:00.000Z (issues, MRs, comments)."""
    return d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (d.microsecond // 1000)


def fmt_s(d):
    """The whole-second format builds use, 2026-09-02T14:03:11Z."""
    return d.strftime("%Y-%m-%dT%H:%M:%SZ")


class Clock:
    """The simulator's clock: starts at the state's `now`, runs scaled, or stays frozen."""

    def __init__(self, start, scale=1.0, frozen=False):
        self.start = start
        self.scale = scale
        self.frozen = frozen
        self.mono0 = time.monotonic()
        self.offset = 0.0
        self.lock = threading.Lock()

    def now(self):
        with self.lock:
            run = 0.0 if self.frozen else (time.monotonic() - self.mono0) * self.scale
            return self.start + dt.timedelta(seconds=run + self.offset)

    def advance(self, seconds):
        with self.lock:
            self.offset += float(seconds)


# ---------------------------------------------------------------------------------------------
# Forge state

CHECK_RANK = {"error": 5, "failure": 4, "pending": 3, "success": 2, "skipped": 1}
BUILD_STATUSES = ["pending", "running", "success", "failure", "cancelled"]
MR_STATES = ["open", "merged", "closed", "source_gone"]
DERIVED_MR_KEYS = ("stacked_on", "stacked", "gates")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
REPO_GLOB_RE = re.compile(r"^[A-Za-z0-9._*-]{1,64}$")
DUE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


# store/repos.go GrantAccess with control/repo.go runAccessGrant: a grant's role, lowest first
# (EffectiveAccess ranks them read 1, write 2, admin 3).
ACCESS_ROLES = ("read", "write", "admin")
# orgs.members_role (store migrations: DEFAULT 'write', CHECK IN ('write', 'read', 'none')).
ORG_MEMBERS_ROLES = ("write", "read", "none")


class StateError(Exception):
    """A forge-state file that does not follow docs/forge-state.md."""


def _require(cond, msg):
    if not cond:
        raise StateError(msg)


class Forge:
    """The served forge: the forge-state document plus lookups; callers hold `lock`."""

    def __init__(self, doc):
        self.lock = threading.RLock()
        self.load(doc)

    def load(self, doc):
        _require(isinstance(doc, dict), "state must be a JSON object")
        _require(doc.get("format") == FORMAT, "format must be %r" % FORMAT)
        _require(isinstance(doc.get("me"), str) and doc["me"], "me must be a username")
        self.now = parse_ts(doc.get("now"))
        self.me = doc["me"]
        repos = doc.get("repos", [])
        _require(isinstance(repos, list), "repos must be a list")
        self.repos = []
        seen = set()
        self._file_comments = {"issue": [], "mr": []}
        for r in repos:
            self.repos.append(self._load_repo(r))
            _require(r["path"] not in seen, "repo %s appears twice" % r["path"])
            seen.add(r["path"])
        self._assign_comment_ids()
        users = doc.get("users")
        if users is None:
            names = {self.me}
            for r in self.repos:
                for it in r["issues"]:
                    names.add(it["author"])
                    names.update(it.get("assignees") or [])
                for m in r["merge_requests"]:
                    names.add(m["author"])
            users = sorted(names)
            self.users_given = False
        else:
            _require(isinstance(users, list) and all(isinstance(u, str) for u in users), "users: list of names")
            self.users_given = True
        self.users = set(users) | {self.me}
        self.users_list = list(users)
        orgs = doc.get("orgs", {})
        _require(isinstance(orgs, dict) and all(
            isinstance(v, dict) and isinstance(v.get("members", []), list) for v in orgs.values()),
            'orgs must map an org name to {"members": [username...]}')
        _require(all(isinstance(v.get("admins", []), list) and all(isinstance(u, str) for u in v.get("admins", []))
                     for v in orgs.values()), "orgs: an org's admins must be a list of usernames")
        _require(all(v.get("members_role", "write") in ORG_MEMBERS_ROLES for v in orgs.values()),
                 "orgs: an org's members_role is one of %s" % ", ".join(ORG_MEMBERS_ROLES))
        self.orgs = orgs
        self._check_org_milestones()
        self._load_webhooks()
        self.extra = {k: v for k, v in doc.items()
                      if k not in ("format", "now", "me", "users", "repos", "orgs", "events")}
        # The events table, oldest first; ids only grow, across a reload too. It holds every kind,
        # push included: the feed is a filtered view of it (store/dashboard.go RecentEvents). A
        # file's `events` (feed rows, docs/forge-state.md) seed it on the first load only: they are
        # the history the forge had before the simulator started, not gitbay behaviour.
        if not hasattr(self, "events"):
            events = doc.get("events", [])
            _require(isinstance(events, list) and all(
                isinstance(e, dict) and isinstance(e.get("id"), int) and isinstance(e.get("repo"), str)
                and isinstance(e.get("kind"), str) and isinstance(e.get("created_at"), str) for e in events),
                "events: a list of {id, repo, kind, created_at, actor?, data?}")
            _require([e["id"] for e in events] == sorted({e["id"] for e in events}),
                     "events: ids must grow, oldest first")
            self.events = [dict(e, data=dict(e.get("data") or {})) for e in events]
        # (repo, issue, commit sha or "mr-N") pairs that already acted (store TryRecordCommitRef).
        self.commit_refs = getattr(self, "commit_refs", set())
        # The credential each queued merge was queued with (store MergeQueueCredential), by
        # (repository, MR number), with the queued_at it belongs to; kept across a reload like the
        # events. A queue entry whose queued_at differs (the file's own) rests on the account. Simulator sets
        # credential_lapsed; a bare Forge has no credentials to lapse.
        self.queue_tokens = getattr(self, "queue_tokens", {})
        if not hasattr(self, "credential_lapsed"):
            self.credential_lapsed = lambda tok, now: ""

    def _assign_comment_ids(self):
        """Comment ids: the row id of gitbay's `issue_comments` or `mr_comments` table
        (store/reactions.go reactionTables names the two tables; control/issue.go runIssueShow emits
        each comment's store `ID`). One counter per table across the whole forge, so an issue
        comment and an MR comment can share a number. A file's `id` must be a positive integer,
        unique among its kind; comments without one are numbered in file order after the highest
        given, and a new comment takes the next (SQLite's rowid: highest + 1).
        guess: across a reload (`/_sim/control` `state`) the counter restarts from the new file's
        highest id, as webhook ids do."""
        self.next_comment_id = {}
        for kind, found in self._file_comments.items():
            ids = {}
            for where, c in found:
                if "id" in c:
                    cid = c["id"]
                    _require(isinstance(cid, int) and not isinstance(cid, bool) and cid > 0,
                             "%s: a comment id must be a positive integer" % where)
                    _require(cid not in ids, "%s: %s comment id %d appears twice (first at %s); an id is unique "
                             "among one kind's comments forge-wide" % (where, kind, cid, ids.get(cid)))
                    ids[cid] = where
            nxt = max(ids, default=0) + 1
            for where, c in found:
                if "id" not in c:
                    c["id"] = nxt
                    nxt += 1
            self.next_comment_id[kind] = nxt
        del self._file_comments

    def new_comment(self, kind, item, author, body, created_at, comment_kind="comment", body_format=None):
        """Appends one comment to an issue's or MR's thread with the next id of its table."""
        c = {"id": self.next_comment_id[kind], "author": author, "body": body, "created_at": created_at,
             "kind": comment_kind}
        if body_format:
            c["body_format"] = body_format
        self.next_comment_id[kind] += 1
        item.setdefault("comments", []).append(c)
        return c

    def _load_webhooks(self):
        """The webhooks of the file's repositories (docs/forge-state.md). gitbay keeps them in one
        table (store/migrations/0005_webhooks.up.sql `webhooks`), so an id is unique across the
        forge and a new one is the highest + 1. The deliveries table lives in memory only and, like
        the events, is kept across a reload, less the deliveries of webhooks the new file no longer
        has (`webhook_deliveries.webhook_id` is ON DELETE CASCADE)."""
        ids = set()
        for r in self.repos:
            for h in r["webhooks"]:
                _require(h["id"] not in ids, "webhook id %d appears twice" % h["id"])
                ids.add(h["id"])
        self.next_hook_id = max(ids, default=0) + 1
        if not hasattr(self, "deliveries"):
            self.deliveries = []
            self.next_delivery_id = 1
        self.deliveries = [d for d in self.deliveries if d["webhook_id"] in ids]

    def hook(self, hook_id):
        """(repository, webhook) of a webhook id, or (None, None)."""
        for r in self.repos:
            for h in r["webhooks"]:
                if h["id"] == hook_id:
                    return r, h
        return None, None

    def record_event(self, repo, actor, kind, data, now):
        """Records one row of gitbay's events table. Every recording call in gitbay passes a JSON
        object literal with at least one key, and the feed sends it back as `data` (control/
        dashboard.go feedOutputs), so `data` is always an object here ({} at the least). `actor`
        is left out when there is none (FeedOut's omitempty)."""
        event = {"id": (self.events[-1]["id"] + 1) if self.events else 1, "repo": repo, "kind": kind,
                 "data": dict(data or {}), "created_at": fmt_ms(now)}
        if actor:
            event["actor"] = actor
        self.events.append(event)
        self.enqueue_deliveries(repo, event, now)

    def enqueue_deliveries(self, repo, event, now):
        """store RecordEvent, in the transaction that inserts the event: one webhook_deliveries row
        for every active webhook of the event's repository whose `events` is `*` or a comma list
        naming the kind (`',' || events || ',' LIKE '%,' || kind || ',%'`, so a name with a space
        beside its comma never matches). Every kind, `push` included: the feed leaves `push` out,
        webhooks do not."""
        r = next((x for x in self.repos if x["path"] == repo), None)
        for h in (r["webhooks"] if r else []):
            if h.get("active", True) and hook_wants(h.get("events", "*"), event["kind"]):
                self.deliveries.append({"id": self.next_delivery_id, "webhook_id": h["id"], "event": event,
                                        "attempts": 0, "next_at": None, "delivered_at": None,
                                        "failed_at": None, "last_status": None, "last_error": None,
                                        "created_at": fmt_ms(now)})
                self.next_delivery_id += 1

    def reachable(self, user, r):
        """Whether `user` reaches repository `r`: store/dashboard.go reachableCond, which the feed
        (RecentEvents) and `repo list` (store ListReposForUser) both use: the repository's owner
        (a user-owned repository), a repo_access grant, membership of the owning org, or a team
        grant. The file says who holds a grant or a team grant in the repository's `access` list
        and who belongs to an org in the top-level `orgs`.
        guess: a repository without an `access` list is granted to `me` only, since the bot needs
        a write grant on every repository it works on; files written before `access` existed keep
        every repository in the bot's feed that way."""
        owner = owner_of(r)
        if any(g[0] == user for g in access_grants(self, r)):
            return True
        if owner in self.orgs:
            return user in (self.orgs[owner].get("members") or [])
        return user == owner

    def _check_org_milestones(self):
        """Every repository of an owner lists the same org milestones, identically.

        gitbay stores an org milestone once and shows it in the list of every repository of the
        org (internal/store/milestones.go, ListMilestones via scopeClause); the file repeats it
        under each repository, as `milestone list` shows it, so the copies must agree.
        """
        for owner in sorted({owner_of(r) for r in self.repos}):
            repos = self.owner_repos(owner)
            first = repos[0]
            want = org_milestones(first)
            for r in repos[1:]:
                have = org_milestones(r)
                for title in sorted(set(want) | set(have)):
                    _require(title in have, "%s lacks org milestone %s that %s lists (an org milestone shows in "
                                            "every repository of its org)" % (r["path"], title, first["path"]))
                    _require(title in want, "%s lacks org milestone %s that %s lists (an org milestone shows in "
                                            "every repository of its org)" % (first["path"], title, r["path"]))
                    _require(have[title] == want[title], "org milestone %s of %s differs between %s and %s"
                             % (title, owner, first["path"], r["path"]))

    def _load_repo(self, r):
        _require(isinstance(r, dict), "each repo must be an object")
        path = r.get("path")
        _require(isinstance(path, str) and path.count("/") == 1, "repo path must be owner/name")
        r = dict(r)
        r.setdefault("visibility", "public")
        r.setdefault("default_branch", "main")
        r.setdefault("branches", {})
        r.setdefault("labels", [])
        r.setdefault("milestones", [])
        r.setdefault("issues", [])
        r.setdefault("merge_requests", [])
        r.setdefault("builds", [])
        r.setdefault("statuses", {})
        _require(isinstance(r["statuses"], dict) and all(isinstance(v, list) for v in r["statuses"].values()),
                 "%s.statuses must map a sha to a list of statuses" % path)
        for sha, entries in r["statuses"].items():
            for st in entries:
                _require(isinstance(st, dict) and isinstance(st.get("context"), str) and st["context"]
                         and st.get("state") in CHECK_RANK,
                         "%s.statuses[%s]: a status needs a context and a state (%s)"
                         % (path, sha, ", ".join(sorted(CHECK_RANK))))
        if "access" in r:
            _require(isinstance(r["access"], list), "%s.access must be a list of usernames or "
                     '{"user", "role", "team"?} grants' % path)
            for i, g in enumerate(r["access"]):
                at = "%s.access[%d]" % (path, i)
                if isinstance(g, str):
                    _require(g != "", "%s: a username, not empty" % at)
                    continue
                _require(isinstance(g, dict) and isinstance(g.get("user"), str) and g["user"],
                         '%s: a username or {"user", "role", "team"?}' % at)
                _require(g.get("role") in ACCESS_ROLES, "%s: role must be one of %s (store/repos.go GrantAccess; "
                         "control/repo.go runAccessGrant)" % (at, ", ".join(ACCESS_ROLES)))
                _require("team" not in g or (isinstance(g["team"], str) and g["team"]),
                         "%s: team must be a team name" % at)
                _require(set(g) <= {"user", "role", "team"}, "%s: a grant has only user, role and team" % at)
        if "admins" in r:
            _require(isinstance(r["admins"], list) and all(isinstance(u, str) for u in r["admins"]),
                     "%s.admins must be a list of usernames" % path)
        r["webhooks"] = [self._load_hook(path, h) for h in r.get("webhooks") or []]
        load_commits(r)
        if "ci_jobs" in r:
            _require(isinstance(r["ci_jobs"], list) and all(isinstance(j, str) and j for j in r["ci_jobs"]),
                     "%s.ci_jobs must be a list of job names" % path)
        for key in ("branches", "tags"):
            if key in r:
                _require(isinstance(r[key], dict), "%s.%s must map names to shas" % (path, key))
        for lab in r["labels"]:
            _require(isinstance(lab, dict) and isinstance(lab.get("name"), str), "%s: label needs name" % path)
            lab.pop("issues", None)
            lab.pop("mrs", None)
        titles = set()
        for ms in r["milestones"]:
            _require(isinstance(ms, dict) and isinstance(ms.get("title"), str) and ms["title"],
                     "%s: milestone needs title" % path)
            ms.setdefault("state", "open")
            _require(ms["state"] in ("open", "closed"), "%s: milestone %s: bad state" % (path, ms["title"]))
            _require("due" not in ms or (isinstance(ms["due"], str) and DUE_RE.fullmatch(ms["due"])),
                     "%s: milestone %s: due must be YYYY-MM-DD" % (path, ms["title"]))
            # Titles are unique per repository, and the org's titles count too: gitbay refuses a
            # repository milestone whose title the org holds (internal/store/milestones.go,
            # CreateMilestone and CreateOrgMilestone's folding).
            _require(ms["title"] not in titles, "%s: milestone %s twice" % (path, ms["title"]))
            titles.add(ms["title"])
            ms.pop("open", None)
            ms.pop("closed", None)
        numbers = set()
        for it in r["issues"]:
            for k in ("number", "title", "state", "author", "created_at"):
                _require(k in it, "%s: issue lacks %s" % (path, k))
            _require(it["state"] in ("open", "closed"), "%s#%s: bad state" % (path, it["number"]))
            _require(it["number"] not in numbers, "%s: issue #%s twice" % (path, it["number"]))
            numbers.add(it["number"])
            parse_ts(it["created_at"])
            it.setdefault("updated_at", it["created_at"])
            self._load_thread(it, "issue", "%s#%s" % (path, it["number"]))
        numbers = set()
        for m in r["merge_requests"]:
            for k in ("number", "title", "state", "author", "source", "target_ref", "head_sha", "created_at"):
                _require(k in m, "%s: merge request lacks %s" % (path, k))
            _require(m["state"] in MR_STATES, "%s!%s: bad state" % (path, m["number"]))
            _require(m["number"] not in numbers, "%s: MR !%s twice" % (path, m["number"]))
            numbers.add(m["number"])
            self._load_thread(m, "mr", "%s!%s" % (path, m["number"]))
            load_revisions(m, "%s!%s" % (path, m["number"]))
            for k in DERIVED_MR_KEYS:
                m.pop(k, None)
            # An MR's checks are the commit statuses of its head (control/mr.go runMRShow reads
            # store ChecksForCommit at mr.HeadSHA), so the file's `checks` land on that commit.
            checks = m.pop("checks", None) or []
            _require(isinstance(checks, list), "%s!%s: checks must be a list" % (path, m["number"]))
            on_head = r["statuses"].setdefault(m["head_sha"], [])
            for c in checks:
                _require(isinstance(c, dict) and isinstance(c.get("context"), str),
                         "%s!%s: a check needs a context" % (path, m["number"]))
                if not any(x["context"] == c["context"] for x in on_head):
                    on_head.append(dict(c))
            if not on_head:
                r["statuses"].pop(m["head_sha"])
        numbers = set()
        for b in r["builds"]:
            for k in ("number", "job", "status", "sha", "ref", "created_at"):
                _require(k in b, "%s: build lacks %s" % (path, k))
            _require(b["status"] in BUILD_STATUSES, "%s build %s: bad status" % (path, b["number"]))
            _require(b["number"] not in numbers, "%s: build %s twice" % (path, b["number"]))
            numbers.add(b["number"])
        r["issues"].sort(key=lambda x: -x["number"])
        r["merge_requests"].sort(key=lambda x: -x["number"])
        r["builds"].sort(key=lambda x: -x["number"])
        return r

    def _load_thread(self, item, kind, where):
        """An item's comments (each may carry `id` and `reactions`) and the item's own `reactions`,
        noted in file order for _assign_comment_ids."""
        comments = item.get("comments")
        if comments is None:
            comments = []
        _require(isinstance(comments, list) and all(isinstance(c, dict) for c in comments),
                 "%s: comments must be a list of objects" % where)
        if "reactions" in item:
            item["reactions"] = load_reactions(item["reactions"], self.me, where + ".reactions")
            if not item["reactions"]:
                item.pop("reactions")
        for i, c in enumerate(comments):
            at = "%s.comments[%d]" % (where, i)
            if "reactions" in c:
                c["reactions"] = load_reactions(c["reactions"], self.me, at + ".reactions")
                if not c["reactions"]:
                    c.pop("reactions")
            self._file_comments[kind].append((at, c))

    @staticmethod
    def _load_hook(path, h):
        _require(isinstance(h, dict) and isinstance(h.get("id"), int) and h["id"] > 0
                 and isinstance(h.get("url"), str) and h["url"],
                 "%s.webhooks: a webhook needs a positive integer id and a url" % path)
        _require(isinstance(h.get("secret", ""), str) and isinstance(h.get("events", "*"), str)
                 and isinstance(h.get("active", True), bool),
                 "%s.webhooks[%d]: secret and events are strings, active a boolean" % (path, h["id"]))
        hook = {"id": h["id"], "url": h["url"], "events": h.get("events", "*"), "active": h.get("active", True)}
        if h.get("secret"):
            hook["secret"] = h["secret"]
        return hook

    def dump(self, now):
        """The current forge in the forge-state format (derived fields left out)."""
        doc = {"format": FORMAT, "now": fmt_ms(now), "me": self.me}
        if self.users_given:
            doc["users"] = self.users_list
        doc.update(self.extra)
        if self.orgs:
            doc["orgs"] = self.orgs
        doc["repos"] = self.repos
        doc = json.loads(json.dumps(doc))
        for r in doc["repos"]:
            for it in r["issues"] + r["merge_requests"]:
                for x in [it] + (it.get("comments") or []):
                    if x.get("reactions"):
                        x["reactions"] = dump_reactions(x["reactions"], self.me)
            for m in r["merge_requests"]:
                checks = mr_checks(r, m)
                if checks:
                    m["checks"] = checks
            if not r["statuses"]:
                r.pop("statuses")
            if not r["webhooks"]:
                r.pop("webhooks")
        return doc

    # lookups

    def repo(self, path):
        for r in self.repos:
            if r["path"] == path:
                return r
        raise CmdError(EXIT_NOT_FOUND, "repository %s not found" % path)

    def repo_index(self, r):
        return self.repos.index(r)

    def owner_repos(self, owner):
        """The repositories of one owner, in file order."""
        return [r for r in self.repos if owner_of(r) == owner]

    def org(self, name):
        """An org's repositories. An owner counts as an org when one of its repositories shows an org
        label or an org milestone (a guess: the file does not name orgs)."""
        repos = self.owner_repos(name)
        if name not in self.orgs and not any(x.get("org") for r in repos for x in r["labels"] + r["milestones"]):
            raise CmdError(EXIT_NOT_FOUND, "no organization %s" % json.dumps(name))
        return repos

    @staticmethod
    def issue(r, n):
        for it in r["issues"]:
            if it["number"] == n:
                return it
        raise CmdError(EXIT_NOT_FOUND, "issue #%d not found in %s" % (n, r["path"]))

    @staticmethod
    def mr(r, n):
        for m in r["merge_requests"]:
            if m["number"] == n:
                return m
        # control/mr.go mrRef: `MR !n not found in <repo>`.
        raise CmdError(EXIT_NOT_FOUND, "MR !%d not found in %s" % (n, r["path"]))

    @staticmethod
    def build(r, n):
        for b in r["builds"]:
            if b["number"] == n:
                return b
        raise CmdError(EXIT_NOT_FOUND, "build %d not found in %s" % (n, r["path"]))


def owner_of(r):
    return r["path"].split("/")[0]


def org_milestones(r):
    """A repository's copies of its org's milestones, by title."""
    return {ms["title"]: ms for ms in r["milestones"] if ms.get("org")}


# derived merge-request facts


def is_fork_source(src):
    return ":" in src or src == ""


def stack_parent(r, m):
    """The open MR of the same repository whose source branch this open MR targets."""
    if m["state"] != "open":
        return None
    for a in r["merge_requests"]:
        if a is m or a["state"] != "open" or is_fork_source(a["source"]):
            continue
        if a["source"] == m["target_ref"]:
            return a
    return None


def stack_children(r, a):
    if a["state"] != "open" or is_fork_source(a["source"]):
        return []
    kids = [m for m in r["merge_requests"] if m is not a and m["state"] == "open" and m["target_ref"] == a["source"]]
    return sorted(kids, key=lambda m: m["number"])


CHECK_KEYS = ("context", "state", "url", "updated_at", "duration")


def commit_statuses(r, sha):
    """store/statuses.go ListCommitStatuses: the latest status per context of one commit,
    `ORDER BY cs.context` (SQLite's binary collation: code point order)."""
    return sorted(r["statuses"].get(sha, []), key=lambda st: st["context"])


def mr_checks(r, m):
    """`mr show` checks: the commit statuses of the MR's current head, whatever its history
    (control/mr.go runMRShow, CheckOut: context, state, url?, updated_at, duration?), by context
    (store ChecksForCommit lists them with ListCommitStatuses)."""
    return [{k: st[k] for k in CHECK_KEYS if st.get(k)} for st in commit_statuses(r, m["head_sha"])]


def combined_state(statuses):
    """store.CombinedStatus: the worst state among a commit's statuses, None when it has none."""
    if not statuses:
        return None
    return max((st.get("state", "pending") for st in statuses), key=lambda s: CHECK_RANK.get(s, 3))


def checks_combined(r, m):
    if m.get("checks_combined"):
        return m["checks_combined"]  # the file's own value, kept until the head's statuses change
    return combined_state(r["statuses"].get(m["head_sha"]))


def set_status(r, sha, context, state, now, description="", url="", creator=""):
    """store SetCommitStatus: upserts the latest state of one context on one commit. It records no
    event: only `status set` does (control/status.go runStatusSet); the build path sets ci/<job>
    silently (control/build.go queueJobs, runRunnerDone, resolveCancelledCommitStatus)."""
    entries = r["statuses"].setdefault(sha, [])
    entry = next((x for x in entries if x["context"] == context), None)
    if entry is None:
        entry = {"context": context}
        entries.append(entry)
    entry["state"] = state
    entry["updated_at"] = fmt_ms(now)
    for key, value in (("description", description), ("url", url), ("creator", creator)):
        if value:
            entry[key] = value
        else:
            entry.pop(key, None)
    entry.pop("duration", None)
    for m in r["merge_requests"]:
        if m["head_sha"] == sha:
            m.pop("checks_combined", None)


def compute_gates(r, m):
    """The merge gates, in the spirit of gitbay's GatesOut: what stands between the MR and a merge."""
    settings = r.get("settings") or {}
    required = int(settings.get("require_approvals", 0) or 0)
    checks_required = bool(settings.get("require_checks", False))
    resolved_required = bool(settings.get("require_resolved", False))
    latest = {}
    for rv in sorted(m.get("reviews") or [], key=lambda x: x.get("created_at", "")):
        latest[rv.get("reviewer")] = rv
    approvals = sorted(n for n, rv in latest.items()
                       if rv.get("verdict") == "approve" and not rv.get("stale") and rv.get("counts", True))
    changes = sorted(n for n, rv in latest.items()
                     if rv.get("verdict") == "request_changes" and not rv.get("stale") and rv.get("counts", True))
    combined = checks_combined(r, m)
    threads = int(m.get("unresolved_threads", 0) or 0)
    g = {"approvals_required": required, "codeowners_required": bool(settings.get("require_codeowners", False)),
         "resolved_required": resolved_required, "open_threads": threads, "checks_required": checks_required,
         "fast_forward": True}
    unmet = []
    if m.get("draft"):
        g["draft"] = True
        unmet.append("!%d is a draft; `gitbay mr ready %s %d` first" % (m["number"], r["path"], m["number"]))
    if approvals:
        g["approvals"] = approvals
    if len(approvals) < required:
        unmet.append("%s needs %d approval%s; !%d has %d" % (
            r["path"], required, "" if required == 1 else "s", m["number"], len(approvals)))
    if changes:
        g["changes_requested"] = changes
        unmet.append("changes requested by %s" % ", ".join(changes))
    if combined:
        g["checks"] = combined
    if checks_required and combined != "success":
        unmet.append("%s requires green checks; %s has %s" % (
            r["path"], m["head_sha"][:10], "checks " + combined if combined else "no checks"))
    if resolved_required and threads:
        unmet.append("%d unresolved thread%s" % (threads, "" if threads == 1 else "s"))
    if unmet:
        g["unmet"] = unmet
    return g


# ---------------------------------------------------------------------------------------------
# Reactions (internal/store/reactions.go)

# store/reactions.go Reactions: the fixed set in display order, each name with its emoji.
REACTIONS = [("+1", "\U0001F44D"), ("-1", "\U0001F44E"), ("laugh", "\U0001F604"), ("hooray", "\U0001F389"),
             ("confused", "\U0001F615"), ("heart", "\u2764\ufe0f"), ("rocket", "\U0001F680"),
             ("eyes", "\U0001F440")]
REACTION_NAMES = [n for n, _ in REACTIONS]


def parse_reaction(v):
    """store/reactions.go ParseReaction: a name or its emoji gives the stored name; the heart
    without its variation selector counts too. None for anything else."""
    for name, emoji in REACTIONS:
        if v == name or v == emoji:
            return name
    if v == "\u2764":
        return "heart"
    return None


def load_reactions(value, me, where):
    """A forge-state file's reactions on an item or a comment (docs/forge-state.md), into the
    simulator's form: {name: [username, ...]}, None standing for an account the file does not
    name. Two shapes are read:
      - the list `[{"reaction", "count"?, "me"?, "users"?}]`, which the simulator writes back and
        which is `show`'s shape plus `users` (so gitbay-bot's reader, which takes `show`'s shape,
        reads it too). `count` defaults to the number of users and may exceed it (the rest are
        unnamed); without `users`, `me` true means the file's `me` is among them.
      - the shorthand object `{"<name>": [username, ...]}`.
    Names are the stored names (`+1`, not the emoji)."""
    out = {}

    def add(name, users, count, mine, at):
        _require(name in REACTION_NAMES, "%s: %s is not a reaction; one of %s"
                 % (at, json.dumps(name), " ".join(REACTION_NAMES)))
        _require(name not in out, "%s: reaction %s appears twice" % (at, name))
        _require(isinstance(users, list) and all(isinstance(u, str) and u for u in users)
                 and len(set(users)) == len(users), "%s: users must be a list of distinct usernames" % at)
        users = list(users)
        if mine is not None:
            _require(isinstance(mine, bool), "%s: me must be true or false" % at)
            if mine and me not in users and (count is None or count > len(users)):
                users.insert(0, me)
            _require(mine == (me in users), "%s: me says %s but users %s %s" % (
                at, json.dumps(mine), "lists" if me in users else "does not list", me))
        if count is not None:
            _require(isinstance(count, int) and not isinstance(count, bool) and count >= len(users),
                     "%s: count must be an integer at least the number of users" % at)
            users += [None] * (count - len(users))
        if users:
            out[name] = users

    if isinstance(value, dict):
        for name, users in value.items():
            add(name, users, None, None, "%s.%s" % (where, name))
    else:
        _require(isinstance(value, list), "%s: reactions must be a list of {reaction, count, me, users} "
                                          "or an object of reaction names to usernames" % where)
        for i, e in enumerate(value):
            at = "%s[%d]" % (where, i)
            _require(isinstance(e, dict) and isinstance(e.get("reaction"), str), "%s: needs a reaction" % at)
            add(e["reaction"], e.get("users", []), e.get("count"), e.get("me"), at)
    return out


def dump_reactions(reactions, me):
    """The written-back form: show's `{"reaction", "count", "me"}` (me: the file's `me`) plus the
    named `users`, in display order."""
    out = []
    for name in REACTION_NAMES:
        users = reactions.get(name) or []
        if users:
            out.append({"reaction": name, "count": len(users), "me": me in users,
                        "users": [u for u in users if u is not None]})
    return out


def reactions_out(reactions, viewer):
    """control/react.go reactionsOut over store ReactionCounts: in display order, only the
    reactions somebody gave, `me` whether the viewer did. None when there are none (guess:
    omitted when empty, docs/gitbay/domain.md)."""
    out = [{"reaction": name, "count": len(reactions[name]), "me": viewer in reactions[name]}
           for name in REACTION_NAMES if reactions and reactions.get(name)]
    return out or None


# ---------------------------------------------------------------------------------------------
# Revisions: the heads a merge request has had (store/mrs.go MRHeads over the mr_heads table,
# internal/store/migrations/0039_mr_head_history.up.sql)

SHA_RE = re.compile(r"^[0-9a-f]{4,64}$")


def load_revisions(m, where):
    """A merge request's `revisions` in the forge-state file: the rows of gitbay's `mr_heads`, oldest
    first, each `{"sha", "base_sha"?, "created_at"}` (`n` and `current`, which `mr revisions` derives,
    are accepted and dropped, so a reply pasted into a file loads). As gitbay keeps them: each
    `created_at` a timestamp, never earlier than the one before (rows are numbered by id as they are
    inserted, stamped by the default `strftime(..., 'now')`); no row repeating the sha of the row
    before (store UpdateMRHead skips a head equal to the newest row); the newest row the MR's
    `head_sha` (UpdateMRHead inserts it in the transaction that sets the head).
    Without `revisions`, the MR gets one: its head, stamped with its `created_at`, no base
    (store CreateMR inserts the opening head with the MR, `base_sha` left ''). guess: the same
    millisecond as the MR's `created_at` (CreateMR's two inserts stamp separately); an MR with no
    head gets none. A file cannot say an MR predates migration 0039 (first row stamped at migration
    time) other than by giving that row."""
    head = m["head_sha"]
    if "revisions" not in m:
        opened = state_ts(m["created_at"], where + ".created_at")
        m["revisions"] = [{"sha": head, "created_at": fmt_ms(opened)}] if head else []
        return
    revs = m["revisions"]
    _require(isinstance(revs, list), "%s.revisions must be a list of {sha, base_sha?, created_at}" % where)
    out, last = [], None
    for i, rv in enumerate(revs):
        at = "%s.revisions[%d]" % (where, i)
        _require(isinstance(rv, dict) and set(rv) <= {"sha", "base_sha", "created_at", "n", "current"},
                 "%s: a revision is {sha, base_sha?, created_at}" % at)
        _require(isinstance(rv.get("sha"), str) and SHA_RE.match(rv["sha"]), "%s: sha must be hex" % at)
        _require(isinstance(rv.get("base_sha", ""), str), "%s: base_sha must be a string" % at)
        _require(isinstance(rv.get("created_at"), str), "%s: created_at must be a timestamp" % at)
        when = state_ts(rv["created_at"], at + ".created_at")
        _require(last is None or when >= last[1], "%s: created_at is earlier than the revision before "
                 "(mr_heads rows are stamped as they are inserted)" % at)
        _require(last is None or rv["sha"] != last[0], "%s: the same sha as the revision before (store "
                 "UpdateMRHead records no revision for an unchanged head)" % at)
        row = {"sha": rv["sha"], "created_at": fmt_ms(when)}
        if rv.get("base_sha"):
            row["base_sha"] = rv["base_sha"]
        out.append(row)
        last = (rv["sha"], when)
    _require((out[-1]["sha"] if out else "") == head, "%s.revisions: the newest revision must be head_sha %s "
             "(store UpdateMRHead records the head in the same transaction)" % (where, head or '""'))
    m["revisions"] = out


def state_ts(text, where):
    """A forge-state file's timestamp, or a StateError naming where it is."""
    try:
        return parse_ts(text)
    except (ValueError, TypeError):
        raise StateError("%s: not a timestamp: %s" % (where, json.dumps(text)))


def record_revision(m, sha, base_sha, now):
    """store/mrs.go UpdateMRHead's history row: appended unless the newest row already has the sha
    ("same head twice is a push that changed nothing about this merge request"), stamped now in
    milliseconds; `base_sha` is left out when empty (RevisionOut's omitempty)."""
    revs = m.setdefault("revisions", [])
    if revs and revs[-1]["sha"] == sha:
        return
    row = {"sha": sha, "created_at": fmt_ms(now)}
    if base_sha:
        row["base_sha"] = base_sha
    revs.append(row)


def revisions_out(m):
    """control/mr.go mrRevisions: one RevisionOut per row, oldest first: `n` (1 for the first row,
    the position and not a stored id), `sha`, `base_sha` (omitempty), `created_at`, `current`
    (omitempty; `sha == head_sha`, so a head pushed back to an older sha marks both rows)."""
    out = []
    for i, rv in enumerate(m.get("revisions") or []):
        row = {"n": i + 1, "sha": rv["sha"]}
        if rv.get("base_sha"):
            row["base_sha"] = rv["base_sha"]
        row["created_at"] = rv["created_at"]
        if rv["sha"] == m["head_sha"]:
            row["current"] = True
        out.append(row)
    return out


# ---------------------------------------------------------------------------------------------
# Output shapes (literal gitbay field names)

ISSUE_ROW_KEYS = ("number", "title", "state", "author", "milestone", "created_at")


def issue_row(it):
    row = {k: it.get(k) for k in ISSUE_ROW_KEYS}
    return {k: v for k, v in row.items() if not (k == "milestone" and not v)}


def comment_out(c, viewer):
    """One comment as `issue show`/`mr show` give it (control/issue.go runIssueShow builds it from
    the store comment's ID, author, body, body format, created_at, kind and reactions): `id` is the
    comments table's row id; `reactions` as on the item, left out when nobody reacted. `kind` never
    reaches the wire: control/thread.go (67d2c52b) commentOut tags it `json:"-"`, so a system
    comment is told only by its author, `system` (the store's kind stays, for `react`'s check)."""
    out = {"id": c["id"], "author": c.get("author", ""), "body": c.get("body", ""),
           "created_at": c.get("created_at", "")}
    if c.get("body_format"):
        out["body_format"] = c["body_format"]
    reactions = reactions_out(c.get("reactions"), viewer)
    if reactions:
        out["reactions"] = reactions
    return out


def issue_show(it, viewer):
    out = issue_row(it)
    if it.get("labels"):
        out["labels"] = sorted(it["labels"])
    if it.get("assignees"):
        out["assignees"] = sorted(it["assignees"])
    for k in ("body", "body_format"):
        if it.get(k):
            out[k] = it[k]
    reactions = reactions_out(it.get("reactions"), viewer)
    if reactions:
        out["reactions"] = reactions
    if it.get("comments"):
        out["comments"] = [comment_out(c, viewer) for c in it["comments"]]
    return out


MR_ROW_KEYS = ("number", "title", "state", "author", "source", "target_ref", "head_sha", "created_at")
MR_OPTIONAL = ("draft", "milestone", "merged_at", "merged_by", "closed_at", "closed_by", "superseded_by", "queued")


def mr_row(r, m):
    out = {k: m[k] for k in MR_ROW_KEYS}
    for k in MR_OPTIONAL:
        if m.get(k):
            out[k] = m[k]
    parent = stack_parent(r, m)
    if parent is not None:
        out["stacked_on"] = {"number": parent["number"], "title": parent["title"]}
    return out


def mr_show(r, m, viewer):
    out = mr_row(r, m)
    for k in ("body", "body_format"):
        if m.get(k):
            out[k] = m[k]
    for k in ("labels", "review_requests"):
        if m.get(k):
            out[k] = sorted(m[k])
    kids = stack_children(r, m)
    if kids:
        out["stacked"] = [{"number": k["number"], "title": k["title"]} for k in kids]
    out["checks"] = mr_checks(r, m)
    combined = checks_combined(r, m)
    if combined:
        out["checks_combined"] = combined
    if m.get("unresolved_threads"):
        out["unresolved_threads"] = m["unresolved_threads"]
    out["commits"] = [dict(c) for c in (m.get("commits") or [])]
    reactions = reactions_out(m.get("reactions"), viewer)
    if reactions:
        out["reactions"] = reactions
    if m.get("comments"):
        out["comments"] = [comment_out(c, viewer) for c in m["comments"]]
    out["reviews"] = [dict(rv) for rv in (m.get("reviews") or [])]
    if m["state"] in ("open", "source_gone"):
        out["gates"] = compute_gates(r, m)
    return out


BUILD_ROW_KEYS = ("number", "job", "status", "sha", "ref", "created_at")
BUILD_OPTIONAL = ("finished_at", "subject", "failed_step", "failed_reason", "duration_s")


def build_row(b, show=False):
    out = {k: b[k] for k in BUILD_ROW_KEYS}
    for k in BUILD_OPTIONAL + (("steps",) if show else ()):
        if b.get(k):
            out[k] = b[k]
    return out


# ---------------------------------------------------------------------------------------------
# argv: registry, lookup, parsing

# Every command path gitbay registers (its control package's register calls); the simulated subset has
# handlers below, the rest answer exit 5 so a stray call is loud, not a misleading 404.
KNOWN_PATHS = """account delete;account export;account import-bundle;admin email verify;admin invite;
admin mail inbound check;admin mr prune;admin org limits;admin repo archive;admin repo delete;admin repo list;
admin repo unarchive;admin repo visibility;admin runners;admin runners forget;admin runners remove;admin stats;
admin symbols reindex;admin user create;admin user delete;admin user demote;admin user disable;admin user enable;
admin user limits;admin user list;admin user promote;admin user show;audit;build cancel;build jobs;build list;
build log;build show;build trigger;dashboard;email add;email list;email primary;email remove;email verify;explore;
feed;help;issue assign;issue close;issue comment;issue create;issue edit;issue label;issue list;issue milestone;
issue react;issue reopen;issue show;issue templates;keys add;keys label;keys list;keys remove;label list;
label remove;label set;milestone close;milestone create;milestone list;milestone reopen;mr apply-suggestion;
mr close;mr comment;mr create;mr diff;mr diff-comment;mr draft;mr edit;mr label;mr list;mr merge;mr milestone;
mr range-diff;mr react;mr ready;mr resolve;mr retarget;mr review;mr review request;mr revisions;mr show;
mr threads;mr unresolve;notifications device add;notifications device list;notifications device remove;
notifications list;notifications read;notifications settings mail;notifications settings push;
notifications settings reply;notifications settings show;notifications settings watch;org create;org delete;
org label list;org label remove;org label set;org list;org members add;org members list;org members remove;
org milestone close;org milestone create;org milestone list;org milestone reopen;org profile;org rename;
org settings members-role;org show;org team add;org team create;org team delete;org team grant;org team list;
org team remove;org team revoke;org team show;pgp add;pgp list;pgp remove;profile set;profile show;query list;
query pin;query remove;query run;query save;query show;query unpin;register;release asset add;release asset get;
release asset remove;release create;release delete;release edit;release list;release show;repo access grant;
repo access list;repo access revoke;repo archive;repo blame;repo bookmark;repo bookmarks;repo cat;repo commit;
repo commit-file;repo create;repo delete;repo deploy-key add;repo deploy-key list;repo deploy-key remove;
repo deps disable;repo deps enable;repo deps status;repo diff;repo domain add;repo domain list;repo domain remove;
repo domain verify;repo download;repo fork;repo grep;repo import;repo import-issues;repo list;repo log;
repo mirror add;repo mirror list;repo mirror remove;repo mirror sync;repo mute;repo pin;repo readme;repo refs;
repo rename;repo runner add;repo runner list;repo runner remove;repo search;repo secret list;repo secret remove;
repo secret set;repo settings default-branch;repo settings description;repo settings git-daemon;
repo settings protect;repo settings protect-tag;repo settings require-approvals;repo settings require-checks;
repo settings require-codeowners;repo settings require-contexts;repo settings require-mr;
repo settings require-resolved;repo settings require-signed;repo settings show;repo settings unprotect;
repo settings unprotect-tag;repo settings visibility;repo settings website;repo show;repo symbols;repo topics;
repo topics add;repo topics remove;repo transfer;repo tree;repo unarchive;repo unbookmark;repo unpin;repo unwatch;
repo watch;runner done;runner log;runner next;search;snippet create;snippet delete;snippet edit;snippet file get;
snippet file remove;snippet file set;snippet list;snippet show;status list;status set;token create;token list;
token revoke;web diff set;web diff show;web login;web sessions list;web sessions revoke;web theme set;
web theme show;webhook add;webhook deliveries;webhook list;webhook redeliver;webhook remove;whoami;wiki list;
wiki show"""
KNOWN = {tuple(p.split()) for p in KNOWN_PATHS.replace("\n", "").split(";")}

# ReadOnly commands among the unsimulated ones (protocol doc §1.3); every other one is a write.
READ_ONLY_UNSIMULATED = {tuple(p.split()) for p in (
    "help;keys list;repo blame;repo diff;repo grep;repo search;repo topics;repo bookmarks;"
    "repo settings show;dashboard;notifications list;notifications settings show;"
    "query list;query show;query run;search;token list;webhook list;webhook deliveries;build jobs;build log;"
    "mr range-diff;mr threads;release list;release show;status list;explore;org list;org show;"
    "org label list;org members list;profile show;email list;snippet list;snippet show;wiki list;"
    "wiki show;issue templates;repo log;repo readme;repo symbols;repo runner list;repo secret list;repo domain list;"
    "repo mirror list;repo deploy-key list;org team list;org team show;pgp list;audit;web diff show;web theme show;"
    "web sessions list;notifications device list").split(";")}


class Spec:
    """One simulated command: how gitbay parses its argv and whether it changes state."""

    def __init__(self, handler, usage, read_only, parser="raw", pos=(0, 0), check="exact", values=(), multi=(),
                 bools=(), paging=None, numeric=True, reads_stdin=False):
        self.handler = handler
        self.usage = usage
        self.read_only = read_only
        self.parser = parser
        self.pos = pos
        self.check = check
        self.values = values
        self.multi = multi
        self.bools = bools
        self.paging = paging
        self.numeric = numeric
        self.reads_stdin = reads_stdin


def lookup(argv):
    """The longest registered path that prefixes argv, or None."""
    for n in range(min(len(argv), 4), 0, -1):
        if tuple(argv[:n]) in KNOWN:
            return tuple(argv[:n])
    return None


def is_read_only(path):
    spec = SPECS.get(path)
    if spec is not None:
        return spec.read_only
    return path in READ_ONLY_UNSIMULATED


def edit_distance(a, b):
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return prev[len(b)]


def nearest_flag(a, known):
    prefixed = [n for n in known if n.startswith(a)]
    close = [n for n in known if edit_distance(a, n) <= 2]
    if len(prefixed) == 1:
        return prefixed[0]
    if not prefixed and len(close) == 1:
        return close[0]
    return ""


class Flags:
    """Parsed argv: positionals plus flags by name (last value wins, repeatables in order)."""

    def __init__(self):
        self.pos = []
        self.vals = {}
        self.multi = {}
        self.seen = set()

    def has(self, name):
        return name in self.seen

    def value(self, name, default=None):
        return self.vals.get(name, default)

    def list(self, name):
        return self.multi.get(name, [])


def usage_error(msg, usage):
    return CmdError(EXIT_USAGE, "%s\nusage: %s" % (msg, usage) if msg else "usage: %s" % usage)


def parse_flags(args, spec, max_pos):
    f = Flags()
    kind = {n: "v" for n in spec.values}
    kind.update({n: "m" for n in spec.multi})
    kind.update({n: "b" for n in spec.bools})
    only_pos = False
    i = 0
    while i < len(args):
        a = args[i]
        if not only_pos and a == "--":
            only_pos = True
        elif not only_pos and a.startswith("--"):
            k = kind.get(a)
            if k == "b":
                f.seen.add(a)
            elif k in ("v", "m"):
                if i + 1 >= len(args):
                    raise usage_error("%s requires a value" % a, spec.usage)
                f.seen.add(a)
                if k == "v":
                    f.vals[a] = args[i + 1]
                else:
                    f.multi.setdefault(a, []).append(args[i + 1])
                i += 1
            else:
                near = nearest_flag(a, kind)
                hint = "; did you mean %s?" % near if near else ""
                raise usage_error("unknown flag %s%s" % (json.dumps(a), hint), spec.usage)
        else:
            if max_pos >= 0 and len(f.pos) >= max_pos:
                raise usage_error("unexpected argument %s" % json.dumps(a), spec.usage)
            f.pos.append(a)
        i += 1
    return f


def b64(s):
    return base64.urlsafe_b64encode(s.encode()).decode().rstrip("=")


def encode_cursor(kind, key):
    return b64("%s:%s" % (kind, key))


def decode_cursor(kind, cursor, numeric):
    if not re.match(r"^[A-Za-z0-9_-]*$", cursor) or len(cursor) % 4 == 1:
        raise CmdError(EXIT_USAGE, "bad cursor")
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        raise CmdError(EXIT_USAGE, "bad cursor")
    k, sep, key = raw.partition(":")
    if not sep or k != kind or not key:
        raise CmdError(EXIT_USAGE, "bad cursor")
    if numeric:
        try:
            int(key)
        except ValueError:
            raise CmdError(EXIT_USAGE, "bad cursor")
    return key


class Page:
    def __init__(self):
        self.limit = 0
        self.key = None
        self.active = False


def strip_paging(args, kind, numeric):
    rest, p = [], Page()
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--limit", "--cursor"):
            if i + 1 >= len(args):
                raise CmdError(EXIT_USAGE, "%s requires a value" % a)
            v = args[i + 1]
            if a == "--limit":
                if not re.match(r"^[+-]?\d+$", v) or not 1 <= int(v) <= MAX_PAGE:
                    raise CmdError(EXIT_USAGE, "--limit must be 1 to %d" % MAX_PAGE)
                p.limit = int(v)
            else:
                p.key = decode_cursor(kind, v, numeric)
            p.active = True
            i += 2
            continue
        rest.append(a)
        i += 1
    return rest, p


def emit_page(p, items, next_cursor):
    if not p.active:
        return items
    out = {"items": items}
    if next_cursor:
        out["next"] = next_cursor
    return out


def page_numbers(rows, p, kind, default_limit=0):
    """Number-descending rows cut to a page strictly below the cursor key."""
    if p.key is not None:
        below = int(p.key)
        rows = [x for x in rows if x["number"] < below]
    limit = p.limit or default_limit
    nxt = None
    if limit and len(rows) > limit:
        rows = rows[:limit]
        nxt = encode_cursor(kind, rows[-1]["number"])
    return rows, nxt


def positive_int(s, what):
    if not re.match(r"^\d+$", s or "") or int(s) < 1:
        raise CmdError(EXIT_USAGE, "%s must be a positive number, not %s" % (what, json.dumps(s)))
    return int(s)


def valid_text(text):
    n = len(text)
    if n < 2 or n > 200:
        raise CmdError(EXIT_USAGE, "search text must be 2 to 200 characters")


def text_matches(words, *fields):
    hay = "\n".join(f or "" for f in fields).lower()
    return all(w.lower() in hay for w in words)


# ---------------------------------------------------------------------------------------------
# Query language (protocol §6)

QUALIFIERS = "repo:, owner:, is:, label:, no:, milestone:, assignee: and author:"


def query_tokens(s):
    toks, quoted = [], []
    cur, in_q, have, start_q = [], False, False, False
    for ch in s:
        if ch == '"':
            if not have:
                start_q = True
            in_q, have = not in_q, True
        elif not in_q and ch in " \t\r\n":
            if have:
                toks.append("".join(cur))
                quoted.append(start_q)
            cur, have, start_q = [], False, False
        else:
            cur.append(ch)
            have = True
    if in_q:
        raise CmdError(EXIT_USAGE, "query term %s: unterminated quote" % json.dumps(s))
    if have:
        toks.append("".join(cur))
        quoted.append(start_q)
    return toks, quoted


class ItemQuery:
    def __init__(self):
        self.scopes = []  # (owner, name_glob or None)
        self.any_repo = False
        self.kind = ""
        self.state = ""
        self.labels = []
        self.no_label = False
        self.milestone = ""
        self.no_milestone = False
        self.assignee = ""
        self.author = ""
        self.text = []

    def selects(self):
        return self.kind != "mr" and self.state != "merged", self.kind != "issue" and not self.assignee


def parse_query(s):
    q = ItemQuery()
    toks, quoted = query_tokens(s)
    if not toks:
        raise CmdError(EXIT_USAGE, 'query term "": the query is empty')
    for tok, was_quoted in zip(toks, quoted):
        key, sep, val = tok.partition(":")
        if was_quoted or not sep:
            q.text.append(tok)
            continue

        def bad(msg, tok=tok):
            return CmdError(EXIT_USAGE, "query term %s: %s" % (json.dumps(tok), msg))

        if val == "":
            raise bad("missing value")
        if key == "repo":
            if val == "*":
                q.any_repo = True
                continue
            owner, slash, name = val.partition("/")
            if not slash or not NAME_RE.match(owner) or not REPO_GLOB_RE.match(name):
                raise bad("want repo:owner/name, repo:owner/glob or repo:*")
            q.scopes.append((owner, name))
        elif key == "owner":
            if not NAME_RE.match(val):
                raise bad("not an owner name")
            q.scopes.append((val, None))
        elif key == "is":
            if val in ("issue", "mr"):
                if q.kind and q.kind != val:
                    raise bad("only one of is:issue and is:mr")
                q.kind = val
            elif val in ("open", "closed", "merged"):
                if q.state and q.state != val:
                    raise bad("only one of is:open, is:closed and is:merged")
                q.state = val
            else:
                raise bad("is: takes open, closed, merged, issue or mr")
            if q.state == "merged" and q.kind == "issue":
                raise bad("an issue is never merged")
            if q.kind == "mr" and q.assignee:
                raise bad("merge requests have no assignees")
        elif key == "label":
            if val not in q.labels:
                q.labels.append(val)
            if q.no_label:
                raise bad("label: and no:label never both match")
        elif key == "milestone":
            if (q.milestone and q.milestone != val) or q.no_milestone:
                raise bad("only one milestone")
            q.milestone = val
        elif key == "no":
            if val == "label":
                if q.labels:
                    raise bad("label: and no:label never both match")
                q.no_label = True
            elif val == "milestone":
                if q.milestone:
                    raise bad("only one milestone")
                q.no_milestone = True
            else:
                raise bad("no: takes label or milestone")
        elif key in ("assignee", "author"):
            if key == "assignee" and q.kind == "mr":
                raise bad("merge requests have no assignees")
            if val != "@me" and not NAME_RE.match(val):
                raise bad("not a username")
            cur = getattr(q, key)
            if cur and cur != val:
                raise bad("only one " + key)
            setattr(q, key, val)
        else:
            raise bad("unknown qualifier; the qualifiers are " + QUALIFIERS)
    text = " ".join(q.text)
    if text and not 2 <= len(text) <= 200:
        raise CmdError(EXIT_USAGE, "query term %s: text must be 2 to 200 characters" % json.dumps(text))
    return q


def glob_match(pattern, name):
    rx = "^" + ".*".join(re.escape(p) for p in pattern.split("*")) + "$"
    return re.match(rx, name) is not None


def query_scope(q, path):
    if q.any_repo or not q.scopes:
        return True
    owner, name = path.split("/", 1)
    for so, sn in q.scopes:
        if so == owner and (sn is None or glob_match(sn, name)):
            return True
    return False


def query_item_matches(q, it, kind, me):
    if q.state and it["state"] != q.state:
        return False
    labels = it.get("labels") or []
    if q.labels and not all(lab in labels for lab in q.labels):
        return False
    if q.no_label and labels:
        return False
    if q.milestone and it.get("milestone") != q.milestone:
        return False
    if q.no_milestone and it.get("milestone"):
        return False
    if q.author and it["author"] != (me if q.author == "@me" else q.author):
        return False
    if q.assignee:
        who = me if q.assignee == "@me" else q.assignee
        if kind != "issue" or who not in (it.get("assignees") or []):
            return False
    if q.text and not text_matches(" ".join(q.text).split(), it.get("title"), it.get("body")):
        return False
    return True


def run_item_query(ctx, q, want_issues, want_mrs, p):
    forge, me = ctx.forge, ctx.user
    after = None
    if p.key is not None:
        parts = p.key.split("|")
        if len(parts) != 3 or parts[1] not in ("0", "1") or not parts[0] or not re.match(r"^-?\d+$", parts[2]):
            raise CmdError(EXIT_USAGE, "bad cursor")
        after = (parts[0], int(parts[1]), int(parts[2]))
    qi, qm = q.selects()
    rows = []
    for idx, r in enumerate(forge.repos):
        if not query_scope(q, r["path"]):
            continue
        if want_issues and qi:
            for it in r["issues"]:
                if query_item_matches(q, it, "issue", me):
                    rows.append(((it["created_at"], 0, (idx + 1) * 1000000 + it["number"]), "issue", r, it))
        if want_mrs and qm:
            for m in r["merge_requests"]:
                if query_item_matches(q, m, "mr", me):
                    rows.append(((m["created_at"], 1, (idx + 1) * 1000000 + m["number"]), "mr", r, m))
    rows.sort(key=lambda x: x[0], reverse=True)
    if after is not None:
        rows = [x for x in rows if x[0] < after]
    limit = p.limit or QUERY_DEFAULT_LIMIT
    nxt = None
    if len(rows) > limit:
        rows = rows[:limit]
        k = rows[-1][0]
        nxt = encode_cursor("query", "%s|%d|%d" % k)
    items = []
    for _, kind, r, it in rows:
        row = {"kind": kind, "repo": r["path"], "number": it["number"], "title": it["title"], "state": it["state"],
               "author": it["author"], "created_at": it["created_at"],
               "updated_at": it.get("updated_at") or it["created_at"]}
        if it.get("draft"):
            row["draft"] = True
        if it.get("milestone"):
            row["milestone"] = it["milestone"]
        items.append(row)
    out = {"items": items}
    if nxt:
        out["next"] = nxt
    return out


def list_by_query(ctx, args, noun):
    spec = Spec(None, "%s list --q <query> | --query <name> [--limit <n>] [--cursor <c>]" % noun, True,
                values=("--q", "--query", "--state", "--label", "--assignee", "--author", "--milestone",
                        "--search"))
    args, p = strip_paging(args, "query", False)
    fl = parse_flags(args, spec, -1)
    if fl.has("--query") and fl.has("--q"):
        raise usage_error("--query and --q are two ways to give one query; pass one", spec.usage)
    if fl.pos:
        raise usage_error("a query spans repositories; name them in it (repo:%s) rather than as an argument"
                          % fl.pos[0], spec.usage)
    for f in ("--state", "--label", "--assignee", "--author", "--milestone", "--search"):
        if fl.has(f):
            raise usage_error(f + " does not combine with a query; put it in the query", spec.usage)
    if fl.has("--query"):
        raise CmdError(EXIT_NOT_FOUND, "no saved query %s; query list shows yours" % json.dumps(fl.value("--query")))
    q = parse_query(fl.value("--q", ""))
    qi, qm = q.selects()
    if noun == "issue" and not qi:
        raise usage_error("that query matches only merge requests; use mr list or query run", spec.usage)
    if noun == "mr" and not qm:
        raise usage_error("that query matches only issues; use issue list or query run", spec.usage)
    return run_item_query(ctx, q, noun == "issue", noun == "mr", p)


# ---------------------------------------------------------------------------------------------
# Command handlers. Each takes (ctx, flags, page) and returns `data` or raises CmdError.


class Ctx:
    """One dispatch: who runs it, what stdin it got, and whether it changed the forge."""

    def __init__(self, sim, user, stdin, token=None):
        self.sim = sim
        self.forge = sim.forge
        self.user = user
        self.stdin = stdin
        self.applied = False
        self.token = token
        # Ctx.Expires: the credential's expiry (None for a token without one).
        self.expires = sim.expires.get(token) if token is not None else None

    def now(self):
        return self.sim.clock.now()

    def now_ms(self):
        return fmt_ms(self.sim.clock.now())

    def now_s(self):
        return fmt_s(self.sim.clock.now())

    def event(self, r, kind, data):
        """c.Store.RecordEvent(repo, c.User, kind, data) as each control handler calls it. A new
        events row is a change to the forge, so the write counts as applied."""
        self.forge.record_event(r["path"], self.user, kind, data, self.now())
        self.applied = True

    def writable_repo(self, path):
        r = self.forge.repo(path)
        refuse_archived(r)
        return r


def refuse_archived(r):
    """control/repo.go refuseArchived: exit 4. Item commands call it after the item is found
    (issueRef/mrRef first), so an unknown number in an archived repository is still exit 3."""
    if r.get("archived"):
        raise CmdError(EXIT_DENIED, "%s is archived; it takes no changes" % r["path"])


def h_whoami(ctx, fl, p):
    return {"username": ctx.user, "admin": False, "key_scope": "full"}


FEED_DEFAULT_LIMIT = 50


def h_feed(ctx, fl, p):
    """`feed`: the events table newest first, without `push` rows, on the repositories the caller
    reaches (internal/store/dashboard.go RecentEvents: `e.kind <> 'push' AND reachableCond`).
    Paging is control/dashboard.go runFeed: a missing --limit becomes 50 before the query, so a
    page always stops at 50 with a `next`; without --limit/--cursor the bare array is sent."""
    forge = ctx.forge
    by_path = {r["path"]: r for r in forge.repos}
    rows = [e for e in reversed(forge.events)
            if e["kind"] != "push" and e["repo"] in by_path and forge.reachable(ctx.user, by_path[e["repo"]])]
    if p.key is not None:
        rows = [e for e in rows if e["id"] < int(p.key)]
    limit = p.limit or FEED_DEFAULT_LIMIT
    nxt = None
    if len(rows) > limit:
        rows = rows[:limit]
        nxt = encode_cursor("feed", rows[-1]["id"])
    return emit_page(p, [json.loads(json.dumps(e)) for e in rows], nxt)


def h_repo_list(ctx, fl, p):
    """`repo list` (control/repo.go runRepoList, store ListReposForUser): the repositories the
    caller owns, is granted, or reaches through an org or a team, ordered by owner then name; the
    cursor key is owner/name and the next page starts strictly after it."""
    key = lambda r: tuple(r["path"].split("/", 1))  # noqa: E731
    repos = sorted((r for r in ctx.forge.repos if ctx.forge.reachable(ctx.user, r)), key=key)
    if p.key is not None:
        after = tuple(p.key.split("/", 1))
        repos = [r for r in repos if key(r) > after]
    nxt = None
    if p.limit and len(repos) > p.limit:
        repos = repos[:p.limit]
        nxt = encode_cursor("repo", repos[-1]["path"])
    rows = []
    for r in repos:
        row = {"path": r["path"], "visibility": r["visibility"]}
        if r.get("description"):
            row["description"] = r["description"]
        if r.get("archived"):
            row["archived"] = True
        rows.append(row)
    return emit_page(p, rows, nxt)


REPO_SHOW_OPTIONAL = ("description", "website", "protected_branches", "archived", "topics", "domains", "fork_of",
                      "watch", "bookmarked")


def h_repo_show(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    out = {"path": r["path"], "visibility": r["visibility"], "default_branch": r["default_branch"]}
    for k in REPO_SHOW_OPTIONAL:
        if r.get(k):
            out[k] = r[k]
    return out


def h_repo_refs(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    return {"branches": [{"name": n, "sha": s} for n, s in sorted(r["branches"].items())],
            "tags": [{"name": n, "sha": s} for n, s in sorted((r.get("tags") or {}).items())]}


def h_deps_status(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    deps = r.get("deps")
    if not deps or not deps.get("enabled", True):
        return {"enabled": False}
    out = {"enabled": True, "behind": list(deps.get("behind") or [])}
    for k in ("last_check", "last_error", "issue_number"):
        if deps.get(k):
            out[k] = deps[k]
    return out


def label_counts(r, name):
    n_issues = sum(1 for it in r["issues"] if name in (it.get("labels") or []))
    n_mrs = sum(1 for m in r["merge_requests"] if name in (m.get("labels") or []))
    return n_issues, n_mrs


def h_label_list(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    org = sorted((lab for lab in r["labels"] if lab.get("org")), key=lambda x: x["name"])
    own = sorted((lab for lab in r["labels"] if not lab.get("org")), key=lambda x: x["name"])
    rows = []
    for lab in org + own:
        i, m = label_counts(r, lab["name"])
        row = {"name": lab["name"], "issues": i, "mrs": m}
        if lab.get("color"):
            row["color"] = lab["color"]
        if lab.get("org"):
            row["org"] = True
        rows.append(row)
    return rows


def h_label_set(ctx, fl, p):
    r = ctx.writable_repo(fl.pos[0])
    name = fl.pos[1]
    if not 1 <= len(name) <= 50:
        raise CmdError(EXIT_USAGE, "a label name is 1 to 50 characters")
    color = None
    if fl.has("--color"):
        c = fl.value("--color")
        if c == "":
            color = ""
        else:
            m = re.match(r"^#?([0-9A-Fa-f]{6})$", c)
            if not m:
                raise CmdError(EXIT_USAGE, "--color takes six hex digits, like 1a7f37 or #1a7f37")
            color = "#" + m.group(1).lower()
    existing = next((lab for lab in r["labels"] if lab["name"] == name), None)
    if existing is not None and existing.get("org"):
        owner = r["path"].split("/")[0]
        raise CmdError(EXIT_FAILURE, "%s is an org label of %s; change it with org label set %s %s"
                       % (name, owner, owner, name))
    if existing is None:
        existing = {"name": name}
        r["labels"].append(existing)
    if color is not None:
        if color:
            existing["color"] = color
        else:
            existing.pop("color", None)
    ctx.applied = True
    out = {"name": name, "issues": 0, "mrs": 0}
    if existing.get("color"):
        out["color"] = existing["color"]
    return out


def milestone_counts(forge, r, ms):
    """Open and closed items of a milestone, as internal/store/milestones.go (milestoneQuery) counts
    them: issues and merge requests alike, open = open issues + open or source_gone MRs, closed =
    closed issues + merged or closed MRs; an org milestone counts over every repository of the org
    (gitbay: those the caller can read; the simulator lets every account read everything)."""
    scope = forge.owner_repos(owner_of(r)) if ms.get("org") else [r]
    n_open = n_closed = 0
    for x in scope:
        for it in x["issues"]:
            if it.get("milestone") == ms["title"]:
                n_open += it["state"] == "open"
                n_closed += it["state"] == "closed"
        for m in x["merge_requests"]:
            if m.get("milestone") == ms["title"]:
                n_open += m["state"] in ("open", "source_gone")
                n_closed += m["state"] in ("merged", "closed")
    return n_open, n_closed


def milestone_rows(forge, r, milestones, state):
    """`milestone list` rows (internal/control/milestone.go, emitMilestones): the org's first, then by
    due date with undated ones last, then by title (store listMilestones' ORDER BY). Not paged; an
    empty list is `[]`: control/control.go emit turns a nil top-level slice into an empty one."""
    chosen = [ms for ms in milestones if state == "all" or ms["state"] == state]
    chosen.sort(key=lambda ms: (not ms.get("org"), not ms.get("due"), ms.get("due", ""), ms["title"]))
    rows = []
    for ms in chosen:
        n_open, n_closed = milestone_counts(forge, r, ms)
        row = {"title": ms["title"], "state": ms["state"], "open": n_open, "closed": n_closed}
        for k in ("description", "due", "org"):
            if ms.get(k):
                row[k] = ms[k]
        rows.append(row)
    return rows


def milestone_state_filter(fl, usage):
    state = fl.value("--state", "open")
    if state not in ("open", "closed", "all"):
        raise usage_error("", usage)
    return state


def h_milestone_list(ctx, fl, p):
    state = milestone_state_filter(fl, SPECS[("milestone", "list")].usage)
    r = ctx.forge.repo(fl.pos[0])
    return milestone_rows(ctx.forge, r, r["milestones"], state)


def set_milestone_state(ctx, copies, state):
    """Sets the state of a milestone (every copy of an org milestone); closing a closed one is no
    error: store SetMilestoneState is a plain UPDATE. No feed event either: internal/control/events.go
    has no milestone kind. The reply is {"milestone", "state"} (milestone.go, setMilestoneState)."""
    for ms in copies:
        if ms["state"] != state:
            ms["state"] = state
            ctx.applied = True
    return {"milestone": copies[0]["title"], "state": state}


def repo_milestone_state(ctx, fl, state, verb):
    """`milestone close|reopen`: archived repositories refuse (exit 4), an unknown title is exit 3 and
    an org milestone exit 1, pointing at the org command (internal/control/milestone.go,
    setMilestoneState; the message is scope.go's orgScopedMsg)."""
    r = ctx.writable_repo(fl.pos[0])
    title = fl.pos[1]
    ms = next((x for x in r["milestones"] if x["title"] == title), None)
    if ms is None:
        raise CmdError(EXIT_NOT_FOUND, "no milestone %s in %s" % (json.dumps(title), r["path"]))
    if ms.get("org"):
        owner = owner_of(r)
        raise CmdError(EXIT_FAILURE, "%s is an org milestone of %s; manage it with org milestone %s %s %s"
                       % (title, owner, verb, owner, title))
    return set_milestone_state(ctx, [ms], state)


def h_milestone_close(ctx, fl, p):
    return repo_milestone_state(ctx, fl, "closed", "close")


def h_milestone_reopen(ctx, fl, p):
    return repo_milestone_state(ctx, fl, "open", "reopen")


def h_org_milestone_list(ctx, fl, p):
    """`org milestone list` (internal/control/orglabel.go, runOrgMilestoneList): the org's milestones
    only, each with org: true, counted across the org."""
    state = milestone_state_filter(fl, SPECS[("org", "milestone", "list")].usage)
    repos = ctx.forge.org(fl.pos[0])
    if not repos:
        return []  # an org that owns no repository has no milestones (emit's nil slice is [])
    return milestone_rows(ctx.forge, repos[0], list(org_milestones(repos[0]).values()), state)


def org_milestone_state(ctx, fl, state):
    """`org milestone close|reopen` (orglabel.go, setOrgMilestoneState). gitbay asks for an org admin;
    the simulator has no org roles and lets every account through (a guess)."""
    org, title = fl.pos
    repos = ctx.forge.org(org)
    copies = [ms for r in repos for ms in r["milestones"] if ms.get("org") and ms["title"] == title]
    if not copies:
        raise CmdError(EXIT_NOT_FOUND, "no org milestone %s on %s" % (json.dumps(title), org))
    return set_milestone_state(ctx, copies, state)


def h_org_milestone_close(ctx, fl, p):
    return org_milestone_state(ctx, fl, "closed")


def h_org_milestone_reopen(ctx, fl, p):
    return org_milestone_state(ctx, fl, "open")


ISSUE_LIST_SPEC_VALUES = ("--state", "--label", "--assignee", "--author", "--milestone", "--search")


def h_issue_list(ctx, args):
    if "--q" in args or "--query" in args:
        return list_by_query(ctx, args, "issue")
    spec = SPECS[("issue", "list")]
    args, p = strip_paging(args, "issue", True)
    fl = parse_flags(args, spec, 1)
    if len(fl.pos) != 1:
        raise usage_error("", spec.usage)
    r = ctx.forge.repo(fl.pos[0])
    state = fl.value("--state", "open")
    if state not in ("open", "closed", "all"):
        raise usage_error("--state must be open, closed or all", spec.usage)
    search = fl.value("--search")
    if search is not None:
        valid_text(search)
    rows = []
    for it in r["issues"]:
        if state != "all" and it["state"] != state:
            continue
        if fl.has("--label") and fl.value("--label") not in (it.get("labels") or []):
            continue
        if fl.has("--assignee") and fl.value("--assignee") not in (it.get("assignees") or []):
            continue
        if fl.has("--author") and it["author"] != fl.value("--author"):
            continue
        if fl.has("--milestone"):
            want = fl.value("--milestone")
            if want == "none" and it.get("milestone"):
                continue
            if want != "none" and it.get("milestone") != want:
                continue
        if search is not None and not text_matches(search.split(), it["title"], it.get("body")):
            continue
        rows.append(it)
    rows, nxt = page_numbers(rows, p, "issue")
    return emit_page(p, [issue_row(it) for it in rows], nxt)


def h_issue_show(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    return issue_show(ctx.forge.issue(r, positive_int(fl.pos[1], "issue number")), ctx.user)


def attach_label(r, labels, name):
    """store/labels.go setItemLabel, adding: the org's label when the org holds the name, else the
    repository's, created (colourless) on first use; attaching one already there changes nothing."""
    if not any(lab["name"] == name for lab in r["labels"]):
        r["labels"].append({"name": name})
    if name not in labels:
        labels.append(name)


def apply_labels(ctx, r, item, fl, noun):
    """`issue label` / `mr label` (control/issue.go runIssueLabel, control/mr.go runMRLabel). Each
    --add and then each --remove is its own store call, committed as it goes: a --remove of a
    label the item lacks exits 3 with the adds (and earlier removes) already applied and no event.
    When every change went through, `<noun>.labeled` is recorded with the full label list, even
    when nothing changed (an add of a label already there), actor the caller."""
    adds, removes = fl.list("--add"), fl.list("--remove")
    if not adds and not removes:
        raise CmdError(EXIT_USAGE, "give --add <label> or --remove <label>")
    for name in adds:
        # guess: the store takes any name; the simulator keeps gitbay's label-name limit (1 to 50
        # characters, control/label.go) and refuses a longer one before changing anything.
        if not 1 <= len(name) <= 50:
            raise CmdError(EXIT_USAGE, "a label name is 1 to 50 characters")
    labels = list(item.get("labels") or [])

    def store():
        if labels:
            item["labels"] = sorted(labels)
        else:
            item.pop("labels", None)

    for name in adds:
        attach_label(r, labels, name)
        ctx.applied = True
    store()
    for name in removes:
        if name not in labels:
            raise CmdError(EXIT_NOT_FOUND, 'label "%s": not found' % name)
        labels.remove(name)
        store()
    ctx.event(r, noun + ".labeled", {"number": item["number"], "labels": sorted(labels)})
    return {"number": item["number"], "labels": sorted(labels) or None}


def h_issue_label(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    return apply_labels(ctx, r, it, fl, "issue")


FORMATS = {"md": "md", "markdown": "md", "org": "org", "org-mode": "org"}


def comment_body(ctx, fl, usage):
    if fl.has("--message") and fl.has("--file"):
        raise usage_error("--message and --file are two ways to give one body; pass one", usage)
    fmt = fl.value("--format", "md")
    if fmt.lower() not in FORMATS:
        raise usage_error("--format must be md or org", usage)
    if fl.has("--file"):
        if fl.value("--file") != "-":
            raise usage_error("--file takes only - (the body on stdin)", usage)
        body = ctx.stdin or ""
    elif fl.has("--message"):
        body = fl.value("--message")
    else:
        raise usage_error("give the comment with --message <text> or --file - (stdin)", usage)
    if len(body.encode("utf-8")) > MAX_BODY_BYTES:
        raise CmdError(EXIT_USAGE, "the body is over 64 KiB")
    if not body.strip():
        raise CmdError(EXIT_USAGE, "the comment is empty")
    return body, FORMATS[fmt.lower()]


def add_comment(ctx, r, item, body, fmt, noun):
    """A person's comment (control package runComment): records `<noun>.commented` {number}. It
    moves an issue's updated_at (store/issues.go AddIssueComment) but not a merge request's:
    store/mrs.go AddMRComment is a plain INSERT into mr_comments."""
    now = ctx.now_ms()
    ctx.forge.new_comment(noun, item, ctx.user, body, now, body_format=fmt)
    if noun == "issue":
        item["updated_at"] = now
    ctx.event(r, noun + ".commented", {"number": item["number"]})
    return {"number": item["number"]}


def h_issue_comment(ctx, fl, p):
    body, fmt = comment_body(ctx, fl, SPECS[("issue", "comment")].usage)
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    return add_comment(ctx, r, it, body, fmt, "issue")


def edited_body(ctx, fl, usage):
    """The body an issue or MR create/edit carries: --file - (stdin) wins over --body; None when neither."""
    if fl.has("--file"):
        if fl.value("--file") != "-":
            raise usage_error("--file takes only - (the body on stdin)", usage)
        body = ctx.stdin or ""
    elif fl.has("--body"):
        body = fl.value("--body")
    else:
        return None
    if len(body.encode("utf-8")) > MAX_BODY_BYTES:
        raise CmdError(EXIT_USAGE, "the body is over 64 KiB")
    return body


def edited_format(fl, usage):
    if not fl.has("--format"):
        return None
    fmt = fl.value("--format")
    if fmt.lower() not in FORMATS:
        raise usage_error("--format must be md or org", usage)
    return FORMATS[fmt.lower()]


def edited_title(fl):
    if not fl.has("--title"):
        return None
    title = fl.value("--title")
    if not title.strip():
        raise CmdError(EXIT_USAGE, "the title is empty")
    return title


def h_issue_create(ctx, fl, p):
    usage = SPECS[("issue", "create")].usage
    r = ctx.writable_repo(fl.pos[0])
    if fl.has("--body") and fl.has("--file"):
        raise usage_error("--body and --file are two ways to give one body; pass one", usage)
    title = edited_title(fl)
    if title is None:
        raise usage_error("--title is required", usage)
    body = edited_body(ctx, fl, usage)
    fmt = edited_format(fl, usage) or "md"
    now = ctx.now_ms()
    # store/issues.go CreateIssue takes the repository's issue_counter, kept apart from the merge
    # requests' mr_counter. guess: the counter stands at the highest issue number in the file.
    number = 1 + max([it["number"] for it in r["issues"]] + [0])
    it = {"number": number, "title": title, "state": "open", "author": ctx.user, "created_at": now,
          "updated_at": now, "body_format": fmt}
    if body:
        it["body"] = body
    r["issues"].insert(0, it)
    ctx.event(r, "issue.created", {"number": number})
    return {"number": number}


def apply_edit(ctx, r, item, fl, usage, noun):
    """`issue edit` / `mr edit`: --title, --body/--file and --format; updated_at moves (store
    UpdateIssueText / UpdateMRText) and `<noun>.edited` {number} is recorded."""
    title = edited_title(fl)
    body = edited_body(ctx, fl, usage)
    fmt = edited_format(fl, usage)
    if title is not None:
        item["title"] = title
    if body is not None:
        item["body"] = body
    if fmt is not None:
        item["body_format"] = fmt
    item["updated_at"] = ctx.now_ms()
    ctx.event(r, noun + ".edited", {"number": item["number"]})
    return {"number": item["number"]}


def h_issue_edit(ctx, fl, p):
    usage = SPECS[("issue", "edit")].usage
    if not any(fl.has(f) for f in ("--title", "--body", "--file", "--format")):
        raise usage_error("give at least one of --title, --body, --file or --format", usage)
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    return apply_edit(ctx, r, it, fl, usage, "issue")


def set_issue_state(ctx, fl, state):
    """control/issue.go setIssueState: an issue already in that state exits 2; otherwise the state
    and updated_at change (store SetIssueState) and `issue.<state>` {number} is recorded, which
    makes a reopen `issue.open`, not `issue.reopened`."""
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    if it["state"] == state:
        raise CmdError(EXIT_USAGE, "issue #%d is already %s" % (it["number"], state))
    it["state"] = state
    it["updated_at"] = ctx.now_ms()
    ctx.event(r, "issue." + state, {"number": it["number"]})
    return {"number": it["number"], "state": state}


def h_issue_close(ctx, fl, p):
    return set_issue_state(ctx, fl, "closed")


def h_issue_reopen(ctx, fl, p):
    return set_issue_state(ctx, fl, "open")


def h_issue_assign(ctx, fl, p):
    """`issue assign` (control/issue.go runIssueAssign): each --add, then each --remove, applied as
    it goes; an unknown user exits 3 (`no such user "x"`), as does removing someone not assigned
    (`x is not assigned`), with what came before it already applied and no event. Otherwise
    `issue.assigned` {number, assignees} is recorded, even when nothing changed. updated_at stays."""
    adds, removes = fl.list("--add"), fl.list("--remove")
    if not adds and not removes:
        raise CmdError(EXIT_USAGE, "give --add <user> or --remove <user>")
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    cur = list(it.get("assignees") or [])

    def store():
        if cur:
            it["assignees"] = sorted(cur)
        else:
            it.pop("assignees", None)

    for u in adds:
        if u not in ctx.forge.users:
            raise CmdError(EXIT_NOT_FOUND, 'no such user "%s"' % u)
        if u not in cur:
            cur.append(u)
            store()
            ctx.applied = True
    for u in removes:
        if u not in ctx.forge.users:
            raise CmdError(EXIT_NOT_FOUND, 'no such user "%s"' % u)
        if u not in cur:
            raise CmdError(EXIT_NOT_FOUND, "%s is not assigned" % u)
        cur.remove(u)
        store()
        ctx.applied = True
    ctx.event(r, "issue.assigned", {"number": it["number"], "assignees": sorted(cur)})
    return {"number": it["number"], "assignees": sorted(cur) or None}


def set_milestone(ctx, r, item, title, noun):
    """control/milestone.go setItemMilestone: `none` clears; an unknown title exits 3. The store
    update is a plain UPDATE (updated_at stays), and `<noun>.milestoned` {number, milestone} is
    recorded every time, milestone "" when cleared."""
    if title != "none" and not any(ms["title"] == title for ms in r["milestones"]):
        raise CmdError(EXIT_NOT_FOUND, "no milestone %s in %s" % (json.dumps(title), r["path"]))
    if title == "none":
        item.pop("milestone", None)
    else:
        item["milestone"] = title
    shown = "" if title == "none" else title
    ctx.event(r, noun + ".milestoned", {"number": item["number"], "milestone": shown})
    return {"milestone": shown}


def h_issue_milestone(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    it = ctx.forge.issue(r, positive_int(fl.pos[1], "issue number"))
    refuse_archived(r)
    return set_milestone(ctx, r, it, fl.pos[2], "issue")


def h_mr_list(ctx, args):
    if "--q" in args or "--query" in args:
        return list_by_query(ctx, args, "mr")
    spec = SPECS[("mr", "list")]
    args, p = strip_paging(args, "mr", True)
    fl = parse_flags(args, spec, 1)
    if len(fl.pos) != 1:
        raise usage_error("", spec.usage)
    r = ctx.forge.repo(fl.pos[0])
    state = fl.value("--state", "open")
    if state not in MR_STATES + ["all"]:
        raise usage_error("--state must be open, merged, closed, source_gone or all", spec.usage)
    search = fl.value("--search")
    if search is not None:
        valid_text(search)
    rows = []
    for m in r["merge_requests"]:
        if state != "all" and m["state"] != state:
            continue
        if fl.has("--label") and fl.value("--label") not in (m.get("labels") or []):
            continue
        if fl.has("--author") and m["author"] != fl.value("--author"):
            continue
        if fl.has("--milestone"):
            want = fl.value("--milestone")
            if (want == "none" and m.get("milestone")) or (want != "none" and m.get("milestone") != want):
                continue
        if search is not None and not text_matches(search.split(), m["title"], m.get("body")):
            continue
        rows.append(m)
    rows, nxt = page_numbers(rows, p, "mr")
    return emit_page(p, [mr_row(r, m) for m in rows], nxt)


def h_mr_show(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    return mr_show(r, ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number")), ctx.user)


def h_mr_label(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    refuse_archived(r)
    return apply_labels(ctx, r, m, fl, "mr")


def h_mr_comment(ctx, fl, p):
    body, fmt = comment_body(ctx, fl, SPECS[("mr", "comment")].usage)
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    refuse_archived(r)
    return add_comment(ctx, r, m, body, fmt, "mr")


def go_quote(v):
    """Go's %q for the strings gitbay quotes in its messages (printable text stays as it is)."""
    return json.dumps(v, ensure_ascii=False)


def readable_item(ctx, path, number, noun):
    """control/issue.go issueRef / control/mr.go mrRef with policy.CanRead: the repository (exit 3
    `repository X not found`, an unreadable private one alike, resolveRepo), then the number
    (strconv.ParseInt: exit 2 `bad issue number "x"`), then the item (exit 3).
    guess: mrRef words its bad number `bad MR number "x"` (mr close's wording)."""
    r = ctx.forge.repo(path)
    if not can_read(ctx.forge, ctx.user, r):
        raise CmdError(EXIT_NOT_FOUND, "repository %s not found" % path)
    try:
        n = go_parse_int(number)
    except ValueError:
        raise CmdError(EXIT_USAGE, "bad %s number %s" % ("issue" if noun == "issue" else "MR", go_quote(number)))
    return r, (ctx.forge.issue(r, n) if noun == "issue" else ctx.forge.mr(r, n))


def react(ctx, fl, noun):
    """`issue react` / `mr react` (control/react.go runReact), its checks in gitbay's order: the
    argv (flags --comment <id> and --remove, at most three positionals, exactly three or the
    usage: exit 2), the repository and item with read access (issueRef/mrRef, CanRead: exit 3), the
    reaction (store ParseReaction: a name or its emoji, else exit 2 `unknown reaction "x"; one of
    ...`), --comment a positive integer (strconv.ParseInt, else exit 2 `bad comment id "x"`), the
    repository not archived (refuseArchived: exit 4), the comment one of this item's and not a
    system entry (store ReactionTarget, else exit 3 `comment N not found on #n` / `!n`). Then store
    SetReaction: one reaction per (item or comment, user, name), so reacting twice or removing a
    reaction not there both succeed and change nothing. A reaction is no event: no events row, so
    no feed row and no webhook, and the item's updated_at stays. Answers control/react.go Reacted:
    {reaction: stored name, comment: id (left out for the item), removed: true (left out unless
    --remove)}."""
    usage = SPECS[(noun, "react")].usage
    if len(fl.pos) != 3:
        raise usage_error("", usage)
    r, item = readable_item(ctx, fl.pos[0], fl.pos[1], noun)
    name = parse_reaction(fl.pos[2])
    if name is None:
        raise CmdError(EXIT_USAGE, "unknown reaction %s; one of %s" % (go_quote(fl.pos[2]), " ".join(REACTION_NAMES)))
    comment_id = 0
    if fl.has("--comment"):
        raw = fl.value("--comment")
        try:
            comment_id = go_parse_int(raw)
        except ValueError:
            comment_id = 0
        if comment_id <= 0:
            raise CmdError(EXIT_USAGE, "bad comment id %s" % go_quote(raw))
    refuse_archived(r)
    target = item
    if comment_id:
        target = next((c for c in item.get("comments") or []
                       if c["id"] == comment_id and c.get("kind", "comment") != "system"), None)
        if target is None:
            raise CmdError(EXIT_NOT_FOUND, "comment %d not found on %s%d"
                           % (comment_id, "#" if noun == "issue" else "!", item["number"]))
    remove = fl.has("--remove")
    reactions = target.setdefault("reactions", {})
    users = reactions.setdefault(name, [])
    if remove and ctx.user in users:
        users.remove(ctx.user)
        ctx.applied = True
    elif not remove and ctx.user not in users:
        users.append(ctx.user)
        ctx.applied = True
    if not users:
        reactions.pop(name)
    if not reactions:
        target.pop("reactions")
    out = {"reaction": name}
    if comment_id:
        out["comment"] = comment_id
    if remove:
        out["removed"] = True
    return out


def h_issue_react(ctx, fl, p):
    return react(ctx, fl, "issue")


def h_mr_react(ctx, fl, p):
    return react(ctx, fl, "mr")


def h_mr_revisions(ctx, fl, p):
    """`mr revisions <owner/name> <n>` (control/mr.go runMRRevisions, 67d2c52b): mrRef with CanRead
    first (repository 3, `bad MR number "x"` 2, `MR !n not found in <repo>` 3), then exactly two
    words (the usage, exit 2). Read-only; not paged; an archived repository is no refusal.
    Answers every revision, oldest first (revisions_out)."""
    r, m = readable_item(ctx, fl.pos[0], fl.pos[1], "mr")
    if len(fl.pos) != 2:
        raise usage_error("", SPECS[("mr", "revisions")].usage)
    return revisions_out(m)


def h_mr_edit(ctx, fl, p):
    usage = SPECS[("mr", "edit")].usage
    if fl.has("--superseded-by"):
        raise CmdError(EXIT_PROTOCOL, "simulator: mr edit --superseded-by is not simulated")
    if not any(fl.has(f) for f in ("--title", "--body", "--file", "--format")):
        raise usage_error("give at least one of --title, --body, --file, --format or --superseded-by", usage)
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    refuse_archived(r)
    return apply_edit(ctx, r, m, fl, usage, "mr")


ZERO_SHA = "0" * 40


def repo_jobs(r):
    """The push jobs of the repository's .gitbay/ci.yml. guess: the file cannot carry a CI
    configuration, so `ci_jobs` names the push jobs; without it, the jobs the repository has built
    before; a repository with neither has no CI configuration and a push queues nothing."""
    if "ci_jobs" in r:
        return list(r["ci_jobs"])
    return sorted({b["job"] for b in r["builds"]})


def queue_jobs(r, ref, sha, actor, now, subject=None):
    """control/build.go QueueBranchBuilds -> queueJobs: one pending build per push job of the
    commit, each with a pending `ci/<job>` status on the commit (store SetCommitStatus: no event),
    and no build for a job the commit already has a success, pending or running build of (a
    failed or cancelled one runs again). Neither the builds nor the statuses record an event.
    guess: no path filters and no earlier build of the same tree, which would set `skipped` or
    `success` instead of queueing (the simulator has no trees)."""
    number = max([b["number"] for b in r["builds"]] + [0])
    if subject is None:
        subject = next((b.get("subject") for b in r["builds"] if b["sha"] == sha and b.get("subject")), None)
    for job in repo_jobs(r):
        if any(b["sha"] == sha and b["job"] == job and b["status"] in ("success", "pending", "running")
               for b in r["builds"]):
            continue
        number += 1
        b = {"number": number, "job": job, "status": "pending", "sha": sha, "ref": ref, "created_at": fmt_s(now)}
        if subject:
            b["subject"] = subject
        r["builds"].insert(0, b)
        set_status(r, sha, "ci/" + job, "pending", now, description="queued", creator=actor)


def push_event(forge, r, actor, branch, old, new, now, forced=False, deleted=False):
    """The `push` row a ref update records (control/refsupdated.go RefsUpdated; control/mr.go
    mergeMR for the branch a merge moves). The feed never shows it (RecentEvents drops
    kind 'push'); webhooks do (Forge.enqueue_deliveries)."""
    forge.record_event(r["path"], actor, "push", {"ref": "refs/heads/" + branch, "old": old, "new": new,
                                                   "forced": forced, "deleted": deleted}, now)


def system_comment(forge, m, body, now):
    """store AddMRSystemComment: a `system` comment (a row of mr_comments, so it takes the next
    MR comment id), shown with the author `system`."""
    forge.new_comment("mr", m, "system", body, fmt_ms(now), comment_kind="system")


def merge_now(forge, r, a, strategy, by, now):
    """control/mr.go mergeMR once its gates pass, as `by`: the caller of `mr merge`, or the account
    that queued the merge when the queue runs it (mergequeue.go attemptLocked)."""
    target = a["target_ref"]
    old = r["branches"].get(target, ZERO_SHA)
    if old == a["head_sha"]:
        # The head is already on the target: recorded as merged, no ref moves, nothing is
        # retargeted and no builds are queued; the event carries the number only.
        # guess: "already on the target" is taken as "the target's tip is the head".
        mark_merged(r, a, by, now)
        forge.record_event(r["path"], by, "mr.merged", {"number": a["number"]}, now)
        return {"number": a["number"], "strategy": "recorded", "sha": a["head_sha"]}
    # guess: the simulator has no history, so a fast-forward always counts as possible: no
    # --strategy means ff, and rebase onto an ancestor is ff too (mergeMR takes it as one).
    if strategy in ("", None, "rebase"):
        strategy = "ff"
    kids = stack_children(r, a)
    if kids and strategy == "squash":
        raise CmdError(EXIT_USAGE, "!%d is stacked on by %s; a %s merge rewrites the commits they build on. "
                       "Merge with the fast-forward or merge strategy, or merge the stack into %s first"
                       % (a["number"], ", ".join("!%d" % k["number"] for k in kids), strategy, a["source"]))
    if strategy == "ff":
        sha = a["head_sha"]
    else:
        sha = hashlib.sha1(("%s:%s:%s:%s" % (strategy, r["path"], a["number"], a["head_sha"])).encode()).hexdigest()
    record_merge(r, a, old, sha, strategy)
    r["branches"][target] = sha
    mark_merged(r, a, by, now)
    forge.record_event(r["path"], by, "mr.merged", {"number": a["number"], "sha": sha}, now)
    # The stack moves up (store RetargetKeepingReviews: target and updated_at change, reviews
    # stay fresh), each child gets a system comment; no mr.retargeted event for these.
    for k in kids:
        k["target_ref"] = target
        k["updated_at"] = fmt_ms(now)
        system_comment(forge, k, "retargeted from %s to %s: !%d merged" % (a["source"], target, a["number"]), now)
    # Merges bypass post-receive, so the default branch's commit-message actions run here, the
    # MR's commits first (guess: their subjects stand for their messages), then its description.
    if target == r["default_branch"]:
        process_commit_messages(forge, r, by, [(c.get("sha") or a["head_sha"], c.get("subject") or "", a["author"])
                                               for c in a.get("commits") or []], now)
        process_mr_description(forge, r, a, by, now)
    # A merge moves the target without post-receive, so mergeMR records the push itself and
    # queues the target branch's builds (QueueBranchBuilds).
    push_event(forge, r, by, target, old, sha, now)
    queue_jobs(r, target, sha, by, now, subject=None if strategy == "ff" else a["title"])
    return {"number": a["number"], "strategy": strategy, "sha": sha}


def mark_merged(r, a, by, now):
    """store MarkMerged; the mr_merge_queue_leave trigger drops a queued merge with the state."""
    a["state"] = "merged"
    a["merged_at"] = fmt_ms(now)
    a["merged_by"] = by
    a["updated_at"] = fmt_ms(now)
    a.pop("queued", None)


def dequeue(forge, m, reason, now):
    """mergequeue.go dequeueWithReason."""
    by = m["queued"].get("by")
    m.pop("queued", None)
    system_comment(forge, m, "dequeued the merge queued by %s: %s" % (by, reason), now)


def attempt_queued_merge(forge, r, m, now):
    """control/mergequeue.go attemptLocked: a queued merge runs as the account that queued it.
    An MR no longer open is dequeued (its source branch was deleted); then the queuer's write
    access as it is now (store AccessRole, policy.CanWrite: can_write, so a `repo access revoke`
    counts): without it, dequeued with `<queuer> no longer has write access to <repo>`; then the
    credential it was queued with (queueCredentialLapsed): a token revoked, expired or narrowed
    dequeues it with the reason; unmet gates keep it queued with the refusal as the reason;
    otherwise it merges and `mr.merged` has the QUEUER as actor. guess: the queuer's account is
    active (the simulator has no disabled or pending accounts)."""
    q = m.get("queued")
    if not q:
        return None
    if m["state"] != "open":
        dequeue(forge, m, "the source branch was deleted", now)
        return None
    queuer = q.get("by") or forge.me
    if not can_write(forge, queuer, r):
        dequeue(forge, m, "%s no longer has write access to %s" % (queuer, r["path"]), now)
        return None
    tok, at = forge.queue_tokens.get((r["path"], m["number"]), (None, None))
    lapsed = forge.credential_lapsed(tok if at == q.get("queued_at") else None, now)
    if lapsed:
        dequeue(forge, m, lapsed, now)
        return None
    unmet = compute_gates(r, m).get("unmet")
    if unmet:
        q["reason"] = "; ".join(unmet)
        return None
    try:
        return merge_now(forge, r, m, q.get("strategy") or "", q.get("by") or forge.me, now)
    except CmdError as e:  # a refusal the queuer can fix keeps it queued, with the reason
        q["reason"] = e.msg
        return None


def attempt_queued_merges_at(forge, r, sha, now):
    """mergequeue.go TryQueuedMergesAt: the queued, open MRs whose head is sha, by number. Called
    when a status lands on sha: `status set`, a build's result, a cancel that restores a pass."""
    for m in sorted(r["merge_requests"], key=lambda x: x["number"]):
        if m.get("queued") and m["state"] == "open" and m["head_sha"] == sha:
            attempt_queued_merge(forge, r, m, now)


def set_mr_draft(ctx, fl, draft):
    """control/mr.go setMRDraft: only `open` or `source_gone` (exit 2 `MR !n is <state>`), exit 2
    when already so; records `mr.draft` {number, draft} (ready is draft false), moves updated_at
    (store SetMRDraft), and a ready tries the queued merge (TryQueuedMerge)."""
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    refuse_archived(r)
    if m["state"] not in ("open", "source_gone"):
        raise CmdError(EXIT_USAGE, "MR !%d is %s" % (m["number"], m["state"]))
    if bool(m.get("draft")) == draft:
        raise CmdError(EXIT_USAGE, "MR !%d is %s" % (m["number"], "already a draft" if draft else "already ready"))
    if draft:
        m["draft"] = True
    else:
        m.pop("draft", None)
    m["updated_at"] = ctx.now_ms()
    ctx.event(r, "mr.draft", {"number": m["number"], "draft": draft})
    if not draft:
        attempt_queued_merge(ctx.forge, r, m, ctx.now())
    return {"number": m["number"], "draft": draft}


def h_mr_ready(ctx, fl, p):
    return set_mr_draft(ctx, fl, False)


def h_mr_draft(ctx, fl, p):
    return set_mr_draft(ctx, fl, True)


def h_mr_close(ctx, fl, p):
    """control/mr.go runMRClose: merged or closed exits 2 (`MR !n is already <state>`) before --by
    is looked at; --by must parse (2), not be itself (2) and exist (3). Records `mr.closed`
    {number} or {number, by}; closed_at, closed_by and updated_at move (store MarkClosed)."""
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    refuse_archived(r)
    if m["state"] in ("merged", "closed"):
        raise CmdError(EXIT_USAGE, "MR !%d is already %s" % (m["number"], m["state"]))
    by = None
    if fl.has("--by"):
        v = fl.value("--by")
        if not re.match(r"^[+-]?\d+$", v):
            raise CmdError(EXIT_USAGE, "bad MR number %s" % json.dumps(v))
        by = int(v)
        if by == m["number"]:
            raise CmdError(EXIT_USAGE, "a merge request cannot supersede itself")
        if not any(x["number"] == by for x in r["merge_requests"]):
            raise CmdError(EXIT_NOT_FOUND, "no merge request !%d on %s" % (by, r["path"]))
    now = ctx.now_ms()
    m["state"] = "closed"
    m["closed_at"] = now
    m["closed_by"] = ctx.user
    m["updated_at"] = now
    m.pop("queued", None)  # the mr_merge_queue_leave trigger
    data = {"number": m["number"]}
    if by:
        m["superseded_by"] = by
        data["by"] = by
    ctx.event(r, "mr.closed", data)
    return {"number": m["number"], "state": "closed"}


# control/mergequeue.go queueMerge's refusal of a credential with an expiry (#257).
QUEUE_EXPIRING_REFUSAL = ("--when-ready merges later on the authority of the credential it is queued with, and this "
                          "one expires; queue it with a key or token without an expiry, or from the web")


def h_mr_merge(ctx, fl, p):
    """control/mr.go runMRMerge, mergeMR; control/mergequeue.go queueMerge, cancelQueuedMerge."""
    usage = SPECS[("mr", "merge")].usage
    strategy = fl.value("--strategy", "")
    if strategy not in ("", "ff", "merge", "squash", "rebase"):
        raise usage_error("--strategy must be ff, merge, squash, or rebase", usage)
    if fl.has("--cancel") and (fl.has("--when-ready") or fl.has("--strategy")):
        raise usage_error("--cancel takes no other flag", usage)
    r = ctx.forge.repo(fl.pos[0])
    m = ctx.forge.mr(r, positive_int(fl.pos[1], "merge request number"))
    now = ctx.now()
    if fl.has("--cancel"):
        # Nothing queued is a plain failure: exit 1 (HTTP 500).
        if not m.get("queued"):
            raise CmdError(EXIT_FAILURE, "!%d is not queued to merge" % m["number"])
        m.pop("queued")
        system_comment(ctx.forge, m, "%s cancelled the queued merge" % ctx.user, now)
        ctx.applied = True
        return {"number": m["number"], "queued": False}
    refuse_archived(r)
    if fl.has("--when-ready"):
        if m["state"] != "open":
            raise CmdError(EXIT_USAGE, "MR !%d is %s" % (m["number"], m["state"]))
        # The merge happens later on the credential's authority, so an expiring one cannot queue
        # (mergequeue.go queueMerge, c.Expires != nil: exit 4), however far off its expiry.
        if ctx.expires is not None:
            raise CmdError(EXIT_DENIED, QUEUE_EXPIRING_REFUSAL)
        # Queueing again replaces queuer and strategy and clears the reason (store QueueMerge,
        # which records the credential too); then it is tried at once, so gates that already
        # pass merge now.
        m["queued"] = {"by": ctx.user, "queued_at": fmt_ms(now)}
        if strategy:
            m["queued"]["strategy"] = strategy
        ctx.forge.queue_tokens[(r["path"], m["number"])] = (ctx.token, m["queued"]["queued_at"])
        ctx.applied = True
        merged = attempt_queued_merge(ctx.forge, r, m, now)
        if merged is not None:
            return merged
        if not m.get("queued"):  # dequeued at once (queueMerge: res.dequeued is exit 4 with the reason)
            last = m["comments"][-1]["body"]
            raise CmdError(EXIT_DENIED, last.split(": ", 1)[1] if ": " in last else last)
        reason = m["queued"].get("reason", "")
        note = " (%s)" % strategy if strategy else ""
        system_comment(ctx.forge, m, "%s queued the merge%s for when the gates pass" % (ctx.user, note), now)
        return {"number": m["number"], "queued": True, "strategy": strategy, "reason": reason}
    # A merged or closed MR is a usage refusal, exit 2 (HTTP 400); source_gone can still merge.
    if m["state"] not in ("open", "source_gone"):
        raise CmdError(EXIT_USAGE, "MR !%d is %s" % (m["number"], m["state"]))
    unmet = compute_gates(r, m).get("unmet")
    if unmet:
        raise CmdError(EXIT_DENIED, "; ".join(unmet))
    out = merge_now(ctx.forge, r, m, strategy, ctx.user, now)
    ctx.applied = True
    return out


def h_build_list(ctx, fl, p):
    """control/build.go runBuildList: newest first; a missing --limit fetches 50, and only an
    explicit --limit cuts a page with a `next` (cursor.go trimPage), so --cursor alone returns up
    to 50 rows and no `next`."""
    r = ctx.forge.repo(fl.pos[0])
    status = fl.value("--status")
    if status is not None and status not in BUILD_STATUSES:
        raise usage_error("--status must be one of %s" % ", ".join(BUILD_STATUSES), SPECS[("build", "list")].usage)
    rows = [b for b in r["builds"]
            if (not fl.has("--ref") or b["ref"] == fl.value("--ref"))
            and (status is None or b["status"] == status)
            and (not fl.has("--job") or b["job"] == fl.value("--job"))]
    if p.key is not None:
        rows = [b for b in rows if b["number"] < int(p.key)]
    nxt = None
    if p.limit:
        if len(rows) > p.limit:
            rows = rows[:p.limit]
            nxt = encode_cursor("build", rows[-1]["number"])
    else:
        rows = rows[:BUILD_DEFAULT_LIMIT]
    return emit_page(p, [build_row(b) for b in rows], nxt)


def h_build_show(ctx, fl, p):
    r = ctx.forge.repo(fl.pos[0])
    return build_row(ctx.forge.build(r, positive_int(fl.pos[1], "build number")), show=True)


def resolve_cancelled_status(forge, r, b, now, actor):
    """control/build.go resolveCancelledCommitStatus: when the commit already has a success build
    of the job (any ref), ci/<job> goes back to success and queued merges at the sha are tried;
    otherwise ci/<job> becomes error, `cancelled`."""
    prev = next((o for o in r["builds"] if o is not b and o["sha"] == b["sha"] and o["job"] == b["job"]
                 and o["status"] == "success"), None)
    if prev is not None:
        set_status(r, b["sha"], "ci/" + b["job"], "success", now,
                   description="passed in build %d on %s" % (prev["number"], prev["ref"]), creator=actor)
        attempt_queued_merges_at(forge, r, b["sha"], now)
    else:
        set_status(r, b["sha"], "ci/" + b["job"], "error", now, description="cancelled", creator=actor)


def h_build_cancel(ctx, fl, p):
    """control/build.go runBuildCancel: a pending or running build only (exit 2 otherwise); the
    commit status is resolved and `build.cancelled` {number, job, sha} is recorded."""
    r = ctx.writable_repo(fl.pos[0])
    b = ctx.forge.build(r, positive_int(fl.pos[1], "build number"))
    if b["status"] not in ("pending", "running"):
        raise CmdError(EXIT_USAGE, "build %d is %s; only a queued or running build can be cancelled"
                       % (b["number"], b["status"]))
    was = b["status"]
    b["status"] = "cancelled"
    b["finished_at"] = ctx.now_s()
    now = ctx.now()
    resolve_cancelled_status(ctx.forge, r, b, now, ctx.user)
    ctx.event(r, "build.cancelled", {"number": b["number"], "job": b["job"], "sha": b["sha"]})
    return {"number": b["number"], "job": b["job"], "status": "cancelled", "was": was}


STATUS_STATES = ("pending", "success", "failure", "error")
STATUS_SET_USAGE = ("status set <owner/name> <sha> --context <c> --state pending|success|failure|error "
                    "[--description <d>] [--url <u>]")


def known_shas(r):
    """The commits the simulator knows a repository has: branch and tag tips, MR heads and their
    listed commits, built commits, commits with statuses and those of `commits`."""
    shas = set(r["branches"].values()) | set((r.get("tags") or {}).values()) | set(r["statuses"])
    shas.update(r.get("commits") or {})
    for m in r["merge_requests"]:
        shas.add(m["head_sha"])
        shas.update(c.get("sha") for c in m.get("commits") or [] if c.get("sha"))
    shas.update(b["sha"] for b in r["builds"])
    return shas


def resolve_commit(r, rev):
    """gitutil.ResolveRef in status set/list: a branch, a tag or a (possibly abbreviated) sha.
    guess: an abbreviation must be 4+ hex digits and match one known commit; a commit the
    simulator never saw does not exist (exit 3)."""
    if rev in r["branches"]:
        return r["branches"][rev]
    if rev in (r.get("tags") or {}):
        return r["tags"][rev]
    if re.fullmatch(r"[0-9a-f]{4,40}", rev or ""):
        hits = sorted(x for x in known_shas(r) if x.startswith(rev))
        if len(hits) == 1:
            return hits[0]
    raise CmdError(EXIT_NOT_FOUND, "no commit %s in %s" % (rev, r["path"]))


def h_status_set(ctx, args):
    """control/status.go runStatusSet. Its own argv loop: --context, --state, --description and
    --url take the next word, anything else is a positional (a third one exits 2). A missing
    repository, sha or context, or a state outside pending|success|failure|error, is the usage
    (exit 2); a ci/ context (any case) is refused with exit 4, since ci/<job> is the builds'; a
    --url must be http(s) (exit 2); then write access (exit 4, and archived: 4) and the commit
    (exit 3). It upserts the status, records `status` {sha, context, state} with the caller as
    actor, tries the queued merges at the sha, and answers {sha, context, state}."""
    path = sha = ""
    vals = {"--context": "", "--state": "", "--description": "", "--url": ""}
    i = 0
    while i < len(args):
        a = args[i]
        if a in vals:
            if i + 1 >= len(args):
                raise CmdError(EXIT_USAGE, "%s requires a value" % a)
            vals[a] = args[i + 1]
            i += 2
            continue
        if not path:
            path = a
        elif not sha:
            sha = a
        else:
            raise CmdError(EXIT_USAGE, "unexpected argument %s" % json.dumps(a))
        i += 1
    context, state = vals["--context"], vals["--state"]
    if not path or not sha or not context or state not in STATUS_STATES:
        raise usage_error("", STATUS_SET_USAGE)
    if context.lower().startswith("ci/"):
        raise CmdError(EXIT_DENIED, "the ci/ prefix is reserved for the instance's builds; report under another "
                                    "name, such as ext/%s" % context.lower()[len("ci/"):])
    url = vals["--url"]
    if url and not (url.startswith("https://") or url.startswith("http://")):
        raise CmdError(EXIT_USAGE, "--url must be http(s)")
    r = ctx.writable_repo(path)
    full = resolve_commit(r, sha)
    now = ctx.now()
    set_status(r, full, context, state, now, description=vals["--description"], url=url, creator=ctx.user)
    ctx.event(r, "status", {"sha": full, "context": context, "state": state})
    attempt_queued_merges_at(ctx.forge, r, full, now)
    return {"sha": full, "context": context, "state": state}


def h_status_list(ctx, fl, p):
    """control/status.go runStatusList: {sha, combined, statuses}; `combined` is "" and
    `statuses` is null when the commit has none (a nil slice inside a struct stays null)."""
    r = ctx.forge.repo(fl.pos[0])
    full = resolve_commit(r, fl.pos[1])
    rows = []
    for st in commit_statuses(r, full):
        row = {"context": st["context"], "state": st["state"]}
        for src, dst in (("description", "description"), ("url", "url"), ("creator", "creator")):
            if st.get(src):
                row[dst] = st[src]
        rows.append(row)
    return {"sha": full, "combined": combined_state(r["statuses"].get(full)) or "", "statuses": rows or None}


# ---------------------------------------------------------------------------------------------
# Repository files: `repo tree` and `repo cat` (internal/control/read.go, dca7370c) over the
# commits the forge-state file and the `push` control give (docs/forge-state.md, Commits). The
# simulator has no git: a commit is a snapshot of its files, and the object ids are computed as
# git computes them (blob and tree hashes), so they match what a real repository would answer.

MAX_BLOB_BYTES = 100 << 20  # config/config.go Default: Limits.MaxBlobBytes
FILE_MODES = ("100644", "100755", "120000")
REPO_TREE_USAGE = "repo tree <owner/name> [<path>] [--ref <ref>]"
REPO_CAT_USAGE = "repo cat <owner/name> <path> [--ref <ref>]"


def load_commits(r):
    """A repository's `commits`: `{"<sha>": {"files": {path: file}, "parents"?: [sha...]}}`, each a
    snapshot of every file at that commit, where a file is its text, or `{"content": text}` or
    `{"base64": bytes}` with an optional `mode` (100644, 100755 or 120000). Paths are relative,
    clean and slash-separated, and no path is both a file and a directory. guess: a commit the
    file does not describe (every commit of an older file) has no files and no parents."""
    path = r["path"]
    commits = r.get("commits")
    if commits is None:
        return
    _require(isinstance(commits, dict), "%s.commits must map a sha to {files, parents?}" % path)
    for sha, c in commits.items():
        check_commit("%s.commits[%s]" % (path, sha), sha, c)


def check_commit(at, sha, c):
    """One commit of `commits` as load_commits takes it, or a StateError naming `at`."""
    _require(re.fullmatch("[0-9a-f]{40}", sha or ""), "%s: a commit is keyed by its 40-hex sha" % at)
    _require(isinstance(c, dict) and set(c) <= {"files", "parents", "message"},
             "%s: a commit is {files, parents?, message?}" % at)
    parents = c.get("parents", [])
    _require(isinstance(parents, list) and all(isinstance(p, str) and re.fullmatch("[0-9a-f]{40}", p)
                                               for p in parents), "%s.parents: a list of 40-hex shas" % at)
    files = c.get("files", {})
    _require(isinstance(files, dict), "%s.files must map a path to a file" % at)
    for p, f in files.items():
        _require(clean_file_path(p) == p, "%s.files: %s is not a clean relative path" % (at, json.dumps(p)))
        file_bytes(f, "%s.files[%s]" % (at, p))
    for p in files:
        for i in range(len(p)):
            if p[i] == "/":
                _require(p[:i] not in files, "%s.files: %s is a file and a directory" % (at, p[:i]))


def record_pushed_commit(r, req, branch, old, sha):
    """The commit a `push` control lands (docs/forge-state.md, Pushes): `files` changes the files of
    its parent (path to a file, or null to delete one that is there), the parent being `parent`,
    else the branch's old tip, else, for a new branch, the default branch's tip (a guess: the
    branch starts there). A sha already in `commits` keeps its files (`files` is then refused).
    Nothing is recorded for a repository without `commits` when `files` is not given, so pushes
    of older files stay as they were; otherwise the commit is added with its parent and the
    resulting files (unchanged without `files`: a commit that touches none)."""
    files = req.get("files")
    commits = r.get("commits")
    if files is None and commits is None:
        return
    _require(files is None or isinstance(files, dict), "push: files must map a path to a file or null")
    commits = commits or {}
    if sha in commits:
        _require(files is None, "push: commit %s is in %s.commits already; its files cannot change" % (sha, r["path"]))
        return
    parent = req.get("parent") or (old if old != ZERO_SHA else r["branches"].get(r["default_branch"], ""))
    _require(isinstance(parent, str), "push: parent must be a sha")
    tree = dict(commit_files(r, parent)) if parent else {}
    for p, f in (files or {}).items():
        if f is None:
            _require(p in tree, "push: %s has no file %s to delete at %s" % (r["path"], p, parent or "(none)"))
            del tree[p]
        else:
            tree[p] = f
    c = {"parents": [parent], "files": tree} if parent else {"files": tree}
    if req.get("subject"):
        c["message"] = req["subject"]
    check_commit("push %s" % branch, sha, c)
    r.setdefault("commits", {})[sha] = c


def clean_file_path(p):
    """A path as a file in a commit must be written: no empty, `.` or `..` part, no slash at an end."""
    if not isinstance(p, str) or not p or any(part in ("", ".", "..") for part in p.split("/")) or "\0" in p:
        return None
    return p


def file_bytes(f, where="file"):
    """The bytes and mode of a file of a commit (load_commits)."""
    if isinstance(f, str):
        return f.encode("utf-8"), "100644"
    _require(isinstance(f, dict) and set(f) <= {"content", "base64", "mode"}
             and (("content" in f) != ("base64" in f)),
             "%s: a file is its text, or {\"content\"|\"base64\", \"mode\"?}" % where)
    mode = f.get("mode", "100644")
    _require(mode in FILE_MODES, "%s: mode is one of %s" % (where, ", ".join(FILE_MODES)))
    if "content" in f:
        _require(isinstance(f["content"], str), "%s: content is text" % where)
        return f["content"].encode("utf-8"), mode
    try:
        return base64.b64decode(f["base64"], validate=True), mode
    except (ValueError, TypeError):
        raise StateError("%s: base64 is not valid base64" % where)


def commit_files(r, sha):
    """The files of a commit; {} for a commit the simulator was not told about (load_commits)."""
    return ((r.get("commits") or {}).get(sha) or {}).get("files") or {}


def git_object_id(kind, body):
    """git's object id: SHA-1 of `<kind> <size>\\0<body>`."""
    return hashlib.sha1(b"%s %d\0" % (kind.encode(), len(body)) + body).hexdigest()


def git_tree_order(name, is_tree):
    """git's tree entry order (tree.c base_name_compare): by name bytes, a tree as name + '/'."""
    return name.encode("utf-8") + (b"/" if is_tree else b"")


def tree_level(files, dir_path):
    """One level of the tree at `dir_path` ("" for the root), as gitutil.ListTree reads `git ls-tree
    -l`: [(name, type, mode, sha, size or -1)] in git's order; None when `dir_path` is no directory.
    A subtree's id is its tree object's, built from its entries as git writes a tree."""
    prefix = dir_path + "/" if dir_path else ""
    if dir_path and not any(p.startswith(prefix) for p in files):
        return None
    blobs, trees = {}, set()
    for p, f in files.items():
        if not p.startswith(prefix):
            continue
        rest = p[len(prefix):]
        if "/" in rest:
            trees.add(rest.split("/", 1)[0])
        else:
            blobs[rest] = file_bytes(f)
    out = []
    for name in trees:
        sub = tree_level(files, prefix + name)
        out.append((name, "tree", "040000", tree_id(sub), -1))
    for name, (data, mode) in blobs.items():
        out.append((name, "blob", mode, git_object_id("blob", data), len(data)))
    out.sort(key=lambda e: git_tree_order(e[0], e[1] == "tree"))
    return out


def tree_id(entries):
    """The id of the tree object holding `entries` (tree_level's rows): git writes a tree's mode
    without its leading zero."""
    body = b"".join(b"%s %s\0" % (mode.lstrip("0").encode(), name.encode("utf-8")) + bytes.fromhex(sha)
                    for name, _, mode, sha, _ in entries)
    return git_object_id("tree", body)


def resolve_rev(r, rev):
    """gitutil.ResolveRef (`git rev-parse --verify <rev>^{commit}`) as far as the simulator knows
    refs: a branch (or refs/heads/<b>), a tag (or refs/tags/<t>), an MR's refs/merge-requests/<n>/head,
    or a full or abbreviated sha of a commit it has seen (4+ hex digits, one match). None otherwise.
    guess: revision expressions such as main~1 are not simulated."""
    if not rev:
        return None
    for prefix, refs in (("refs/heads/", r["branches"]), ("refs/tags/", r.get("tags") or {})):
        name = rev[len(prefix):] if rev.startswith(prefix) else rev
        if name in refs:
            return refs[name]
    g = re.fullmatch(r"refs/merge-requests/(\d+)/head", rev)
    if g:
        m = next((x for x in r["merge_requests"] if x["number"] == int(g.group(1))), None)
        return m["head_sha"] or None if m else None
    if re.fullmatch(r"[0-9a-f]{4,40}", rev):
        hits = sorted(x for x in known_shas(r) if x.startswith(rev))
        if len(hits) == 1:
            return hits[0]
    return None


def read_args(args, usage, max_pos):
    """control/read.go readArgs: `--ref <r>` is the one flag; any other `--word` is an unknown flag
    (no hint); a positional past `max_pos` is the usage. Answers (positionals, ref)."""
    pos, ref = [], ""
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--ref":
            if i + 1 >= len(args):
                raise CmdError(EXIT_USAGE, "--ref requires a value")
            ref = args[i + 1]
            i += 2
            continue
        if a.startswith("--"):
            raise CmdError(EXIT_USAGE, "unknown flag %s\nusage: %s" % (go_quote(a), usage))
        if len(pos) >= max_pos:
            raise usage_error("", usage)
        pos.append(a)
        i += 1
    return pos, ref


def clean_repo_path(p):
    """control/read.go cleanRepoPath: slashes trimmed at both ends, then path.Clean; ("", True) for
    an empty path, (None, False) for one that cleans to `.` or leaves the repository."""
    p = p.strip("/")
    if p == "":
        return "", True
    parts = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if parts and parts[-1] != "..":
                parts.pop()
            else:
                parts.append("..")
            continue
        parts.append(part)
    cleaned = "/".join(parts) or "."
    if cleaned in (".", "..") or cleaned.startswith("../"):
        return None, False
    return cleaned, True


def readable_repo(ctx, path):
    """control/repo.go resolveRepo with policy.CanRead: unknown or unreadable, exit 3."""
    r = ctx.forge.repo(path)
    if not can_read(ctx.forge, ctx.user, r):
        raise CmdError(EXIT_NOT_FOUND, "repository %s not found" % path)
    return r


def ref_commit(r, ref):
    """The ref a read names, the default branch when none, and the commit it resolves to: exit 3
    `no ref "x" in <repo>` otherwise, which is what an empty repository answers (no branch yet)."""
    ref = ref or r["default_branch"]
    sha = resolve_rev(r, ref)
    if sha is None:
        raise CmdError(EXIT_NOT_FOUND, "no ref %s in %s" % (go_quote(ref), r["path"]))
    return ref, sha


def h_repo_tree(ctx, args):
    """`repo tree <owner/name> [<path>] [--ref <ref>]` (control/read.go runRepoTree): readArgs (exit
    2), one positional at least (exit 2), read access (exit 3), the path (exit 2 `path must stay
    inside the repository`), the ref (exit 3), the directory (exit 3 `no such path "<dir>" in
    <repo> at <ref>`, a file's path included). Answers {path, ref, dir, entries}: each entry
    {name, type, mode, sha, size?}, size left out for a tree and for an empty blob (omitempty);
    entries [] when empty, in git's order."""
    pos, ref = read_args(args, REPO_TREE_USAGE, 2)
    if not pos:
        raise usage_error("", REPO_TREE_USAGE)
    r = readable_repo(ctx, pos[0])
    dir_path = ""
    if len(pos) == 2:
        dir_path, ok = clean_repo_path(pos[1])
        if not ok:
            raise CmdError(EXIT_USAGE, "path must stay inside the repository")
    ref, sha = ref_commit(r, ref)
    entries = tree_level(commit_files(r, sha), dir_path)
    if entries is None:
        raise CmdError(EXIT_NOT_FOUND, "no such path %s in %s at %s" % (go_quote(dir_path), r["path"], ref))
    out = []
    for name, kind, mode, oid, size in entries:
        e = {"name": name, "type": kind, "mode": mode, "sha": oid}
        if kind != "tree" and size > 0:
            e["size"] = size
        out.append(e)
    return {"path": r["path"], "ref": ref, "dir": dir_path, "entries": out}


def go_json_string(data):
    """string(data) as Go's encoding/json writes it: each byte that starts no valid UTF-8 sequence
    becomes U+FFFD (encode.go: DecodeRuneInString gives RuneError, size 1)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out, i = [], 0
    while i < len(data):
        if data[i] < 0x80:
            out.append(chr(data[i]))
            i += 1
            continue
        for n in (2, 3, 4):
            try:
                ch = data[i:i + n].decode("utf-8")
            except UnicodeDecodeError:
                continue
            if len(ch) == 1:
                out.append(ch)
                i += n
                break
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def h_repo_cat(ctx, args):
    """`repo cat <owner/name> <path> [--ref <ref>]` (control/read.go runRepoCat): readArgs (exit 2),
    exactly two positionals (exit 2), read access (exit 3), the path, which may not be empty (exit
    2), the ref (exit 3), the blob (exit 3 `no such file "<path>" in <repo> at <ref>`: a directory
    or a missing file). It reads max_blob_bytes + 1 bytes (config Limits.MaxBlobBytes, 100 MiB by
    default, `--max-blob-bytes` here): a larger blob comes back cut to the cap with truncated:
    true. binary is whether a NUL byte is among them (gitutil.IsBinary); a binary blob is sent as
    base64, any other as content; both omitempty, so an empty file has neither."""
    pos, ref = read_args(args, REPO_CAT_USAGE, 2)
    if len(pos) != 2:
        raise usage_error("", REPO_CAT_USAGE)
    r = readable_repo(ctx, pos[0])
    file_path, ok = clean_repo_path(pos[1])
    if not ok or file_path == "":
        raise CmdError(EXIT_USAGE, "path must stay inside the repository")
    ref, sha = ref_commit(r, ref)
    f = commit_files(r, sha).get(file_path)
    if f is None:
        raise CmdError(EXIT_NOT_FOUND, "no such file %s in %s at %s" % (go_quote(file_path), r["path"], ref))
    data, _ = file_bytes(f)
    limit = getattr(ctx.sim, "max_blob_bytes", MAX_BLOB_BYTES)
    truncated = len(data) > limit
    if truncated:
        data = data[:limit]
    binary = b"\0" in data
    out = {"path": r["path"], "ref": ref, "file": file_path, "size": len(data), "binary": binary}
    if truncated:
        out["truncated"] = True
    if binary:
        out["base64"] = base64.b64encode(data).decode("ascii")
    elif data:
        out["content"] = go_json_string(data)
    return out


# ---------------------------------------------------------------------------------------------
# What a merge request changes: `mr diff` (control/mr.go runMRDiff, 67d2c52b), raw text that the
# API wraps in `output` (httpd/api.go apiCmd, apiread.go apiRead).

MR_DIFF_LIMIT = 4 << 20  # runMRDiff: gitutil.Diff(dir, base, head, 4<<20)
STAT_WIDTH = 80  # git diff --stat's width when its output is no terminal


class RawOutput:
    """A command's stdout that is not one JSON object (`mr diff`): the API answers
    {"protocol_version", "output", "exit_code", "stderr"?} without `data` (httpd/api.go apiCmd:
    json.Unmarshal of stdout fails, so it is wrapped; stderr is added when not blank)."""

    def __init__(self, output, stderr=""):
        self.output = output
        self.stderr = stderr

    def envelope(self, code):
        out = {"protocol_version": PROTOCOL_VERSION, "output": self.output, "exit_code": code}
        if self.stderr.strip():
            out["stderr"] = self.stderr.strip()
        return out


def merge_base(r, a, b):
    """`git merge-base a b` over the commits' `parents` (docs/forge-state.md, Commits): the nearest
    ancestor of b that is an ancestor of a (each commit its own). None when they share none, which
    is every pair of commits the file does not relate. guess: with criss-cross histories git may
    pick another best base."""
    if not a or not b:
        return None
    commits = r.get("commits") or {}

    def walk(start):
        seen, queue = [start], [start]
        while queue:
            nxt = []
            for sha in queue:
                for p in (commits.get(sha) or {}).get("parents") or []:
                    if p not in seen:
                        seen.append(p)
                        nxt.append(p)
            queue = nxt
        return seen

    of_a = set(walk(a))
    return next((sha for sha in walk(b) if sha in of_a), None)


def diff_pairs(old, new):
    """The files two trees differ in, as git diff pairs them: (old path, new path), None for a
    side that has none, in path order; a file deleted here and added there with the same bytes and
    mode is one rename (git's default diff.renames). guess: only exact renames are found (git also
    pairs files at least 50% alike)."""
    deleted = sorted((p for p in old if p not in new), key=lambda p: p.encode("utf-8"))
    added = sorted((p for p in new if p not in old), key=lambda p: p.encode("utf-8"))
    pairs = [(p, p) for p in old if p in new and file_bytes(old[p]) != file_bytes(new[p])]
    for p in added:
        src = next((d for d in deleted if file_bytes(old[d]) == file_bytes(new[p])), None)
        if src is not None:
            deleted.remove(src)
            pairs.append((src, p))
        else:
            pairs.append((None, p))
    pairs.extend((d, None) for d in deleted)
    return sorted(pairs, key=lambda x: (x[1] if x[1] is not None else x[0]).encode("utf-8"))


def patch_lines(a, b):
    """The hunks of a text change, three lines of context, `\\ No newline at end of file` after a
    last line without one. guess: Python's difflib draws the hunks (git's diff may place a change
    differently) and no function name follows the @@ line."""
    out = []
    for line in list(difflib.unified_diff(a.splitlines(True), b.splitlines(True), n=3))[2:]:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def short_id(data):
    return git_object_id("blob", data)[:7] if data is not None else "0000000"


def file_patch(old_path, new_path, old, new):
    """One `diff --git` section of `git diff --patch`, with its `--stat` numbers (added, deleted,
    or None for a binary file)."""
    a_data, a_mode = file_bytes(old) if old is not None else (None, None)
    b_data, b_mode = file_bytes(new) if new is not None else (None, None)
    a_name, b_name = old_path or new_path, new_path or old_path
    head = ["diff --git a/%s b/%s\n" % (a_name, b_name)]
    if old is None:
        head.append("new file mode %s\n" % b_mode)
    elif new is None:
        head.append("deleted file mode %s\n" % a_mode)
    elif old_path != new_path:
        head += ["similarity index 100%\n", "rename from %s\n" % old_path, "rename to %s\n" % new_path]
        return "".join(head), (0, 0)
    elif a_mode != b_mode:
        head += ["old mode %s\n" % a_mode, "new mode %s\n" % b_mode]
    if a_data != b_data:
        mode = " %s" % a_mode if old is not None and new is not None and a_mode == b_mode else ""
        head.append("index %s..%s%s\n" % (short_id(a_data), short_id(b_data), mode))
    a_label = "a/" + a_name if old is not None else "/dev/null"
    b_label = "b/" + b_name if new is not None else "/dev/null"
    if (a_data and b"\0" in a_data) or (b_data and b"\0" in b_data):
        head.append("Binary files %s and %s differ\n" % (a_label, b_label))
        return "".join(head), None
    a_text, b_text = go_json_string(a_data or b""), go_json_string(b_data or b"")
    if a_text == b_text:
        return "".join(head), (0, 0)
    body = patch_lines(a_text, b_text)
    added = sum(1 for ln in body.splitlines() if ln.startswith("+"))
    deleted = sum(1 for ln in body.splitlines() if ln.startswith("-"))
    return "".join(head) + "--- %s\n+++ %s\n" % (a_label, b_label) + body, (added, deleted)


def stat_name(old_path, new_path):
    """A --stat name: the path, or a rename as `dir/{old => new}` (git's pprint_rename)."""
    if old_path is None or new_path is None or old_path == new_path:
        return new_path or old_path
    pre = 0
    while pre < min(len(old_path), len(new_path)) and old_path[pre] == new_path[pre]:
        pre += 1
    pre = old_path.rfind("/", 0, pre) + 1
    suf = 0
    while suf < min(len(old_path), len(new_path)) - pre and old_path[-1 - suf] == new_path[-1 - suf]:
        suf += 1
    cut = old_path.find("/", len(old_path) - suf) if suf else -1
    suf = len(old_path) - cut if cut >= 0 else 0
    a_mid, b_mid = old_path[pre:len(old_path) - suf], new_path[pre:len(new_path) - suf]
    if not pre and not suf:
        return "%s => %s" % (old_path, new_path)
    return "%s{%s => %s}%s" % (old_path[:pre], a_mid, b_mid, old_path[len(old_path) - suf:])


def stat_block(rows):
    """`git diff --stat` (diff.c show_stats), simplified: one ` name | count bar` line per file,
    `Bin X -> Y bytes` for a binary one, and the summary line. guess: long names are not cut and the
    bar is scaled linearly into what is left of 80 columns."""
    if not rows:
        return ""
    name_w = max(len(n) for n, _, _ in rows)
    num_w = max([len(str(a + d)) for _, s, (a, d) in rows if s is not None] + [3 if any(s is None for _, s, _ in rows)
                                                                                else 1])
    graph_w = max(STAT_WIDTH - (1 + name_w + 3 + num_w + 1), 6)
    most = max([a + d for _, s, (a, d) in rows if s is not None] + [0])
    lines, ins, dels = [], 0, 0
    for name, s, (a, d) in rows:
        if s is None:
            lines.append(" %-*s | Bin %d -> %d bytes\n" % (name_w, name, a, d))
            continue
        ins, dels = ins + a, dels + d
        if most > graph_w:
            a, d = (a * graph_w + most - 1) // most, (d * graph_w + most - 1) // most
        bar = "+" * a + "-" * d
        lines.append((" %-*s | %*d %s" % (name_w, name, num_w, s[0] + s[1], bar)).rstrip() + "\n")
    n = len(rows)
    summary = " %d file%s changed" % (n, "" if n == 1 else "s")
    if ins or not dels:
        summary += ", %d insertion%s(+)" % (ins, "" if ins == 1 else "s")
    if dels or not ins:
        summary += ", %d deletion%s(-)" % (dels, "" if dels == 1 else "s")
    return "".join(lines) + summary + "\n\n"


def diff_text(old, new):
    """`git diff --stat --patch <base> <head>` (gitutil.Diff) of two commits' files."""
    rows, patches = [], []
    for old_path, new_path in diff_pairs(old, new):
        o = old.get(old_path) if old_path else None
        n = new.get(new_path) if new_path else None
        text, counts = file_patch(old_path, new_path, o, n)
        patches.append(text)
        if counts is None:
            sizes = (len(file_bytes(o)[0]) if o is not None else 0, len(file_bytes(n)[0]) if n is not None else 0)
            rows.append((stat_name(old_path, new_path), None, sizes))
        else:
            rows.append((stat_name(old_path, new_path), counts, counts))
    return stat_block(rows) + "".join(patches)


def record_merge(r, a, target_tip, sha, strategy):
    """What a merge leaves for `mr diff` and `repo cat`, in a repository with `commits`: the merge
    base before the merge, kept as the MR's `merged_base` (store MarkMerged records it; runMRDiff
    diffs from it once merged, since after a fast-forward the live merge base is the head), and
    for a `merge` or `squash` the new commit: the target's files with the MR's changes applied
    (parents the target's tip, and the head for `merge`). guess: no conflicts, file by file."""
    commits = r.get("commits")
    if commits is None:
        return
    base = merge_base(r, target_tip, a["head_sha"])
    if base:
        a["merged_base"] = base
    if sha == a["head_sha"] or sha in commits:
        return
    files = dict(commit_files(r, target_tip))
    head_files, base_files = commit_files(r, a["head_sha"]), commit_files(r, base) if base else {}
    for path in set(head_files) | set(base_files):
        if head_files.get(path) != base_files.get(path):
            if path in head_files:
                files[path] = head_files[path]
            else:
                files.pop(path, None)
    parents = [target_tip] if target_tip != ZERO_SHA else []
    if strategy == "merge":
        parents.append(a["head_sha"])
    commits[sha] = {"parents": parents, "files": files} if parents else {"files": files}


def h_mr_diff(ctx, fl, p):
    """`mr diff <owner/name> <n>` (control/mr.go runMRDiff, 67d2c52b): mrRef with CanRead (repository
    3, `bad MR number "x"` 2, `MR !n not found in <repo>` 3; words past the second are ignored);
    exit 1 when the head ref is gone (`the head of !n is no longer in the repository; its diff is
    not available`) or there is no merge base (`no common history between refs/heads/<target> and
    refs/merge-requests/<n>/head`, gitutil.MergeBase). The base is the one recorded at the merge
    (`merged_base`), else the merge base of the target branch and the head now. The text is
    `git diff --stat --patch` cut at 4 MiB, with `diff truncated at 4 MiB; fetch the branch for
    the rest` on stderr when cut; over the API it is the `output` of the reply (RawOutput)."""
    r, m = readable_item(ctx, fl.pos[0], fl.pos[1], "mr")
    head = m["head_sha"]
    if not head:
        raise CmdError(EXIT_FAILURE, "the head of !%d is no longer in the repository; its diff is not available"
                       % m["number"])
    base = m.get("merged_base") or merge_base(r, r["branches"].get(m["target_ref"]), head)
    if base is None:
        raise CmdError(EXIT_FAILURE, "no common history between refs/heads/%s and refs/merge-requests/%d/head"
                       % (m["target_ref"], m["number"]))
    data = diff_text(commit_files(r, base), commit_files(r, head)).encode("utf-8")
    stderr = ""
    if len(data) > MR_DIFF_LIMIT:
        data = data[:MR_DIFF_LIMIT]
        stderr = "diff truncated at 4 MiB; fetch the branch for the rest"
    return RawOutput(go_json_string(data), stderr)


# ---------------------------------------------------------------------------------------------
# Webhooks: the five `webhook` commands (internal/control/webhook.go) and the deliverer
# (internal/webhook/webhook.go). Paths in comments are relative to gitbay's internal/.

# control/events.go EventKinds: every kind the forge records, and so every name `--events` may use.
# The stored copy (6f184c29) predates mr.labeled and mr.review_requested; TestEventKindsAreRecorded
# (events_test.go, a2d1580d) fails when a recorded kind is missing, and mr.go records both
# (runMRLabel, runMRReviewRequest, which came with migration 0042_mr_review_requests), so newer
# lists hold them. guess: their place in the list (it is sorted).
WEBHOOK_EVENT_KINDS = [
    "build.cancelled", "build.failure", "build.success", "issue.assigned", "issue.closed", "issue.commented",
    "issue.created", "issue.edited", "issue.labeled", "issue.milestoned", "issue.open", "mr.closed",
    "mr.commented", "mr.created", "mr.draft", "mr.edited", "mr.labeled", "mr.merged", "mr.milestoned",
    "mr.retargeted", "mr.review_requested", "mr.reviewed", "push", "release.created", "release.deleted",
    "repo.archived", "repo.imported", "repo.unarchived", "status"]
WEBHOOK_TICK = 2.0  # webhook.go Run: a 2 s ticker
WEBHOOK_BATCH = 20  # webhook.go Run: DueDeliveries(20) a tick
WEBHOOK_TIMEOUT = 10.0  # webhook.go New: http.Client Timeout
WEBHOOK_DIAL_TIMEOUT = 5.0  # webhook.go New: net.Dialer Timeout
WEBHOOK_MAX_ATTEMPTS = 5  # webhook.go New: MaxAttempts
WEBHOOK_RETRY_BASE = 30.0  # cmd/gitbayd/main.go serveCmd: retryBase := 30 * time.Second
WEBHOOK_BODY_READ = 4096  # webhook.go deliver: io.LimitReader(resp.Body, 4096)
WEBHOOK_SECRET_MAX = 64 << 10  # control/webhook.go runWebhookAdd: io.LimitReader(c.Stdin, 64<<10)

WEBHOOK_ADD_USAGE = "webhook add <owner/name> <url> [--secret -] [--events push,issue.created|*]"
WEBHOOK_LIST_USAGE = "webhook list <owner/name>"
WEBHOOK_REMOVE_USAGE = "webhook remove <owner/name> <id>"
WEBHOOK_DELIVERIES_USAGE = "webhook deliveries <owner/name> [--limit n]"
WEBHOOK_REDELIVER_USAGE = "webhook redeliver <owner/name> <delivery-id>"


def hook_wants(events, kind):
    """store RecordEvent's filter: `events = '*' OR ',' || events || ',' LIKE '%,' || kind || ',%'`."""
    return events == "*" or ("," + kind + ",") in ("," + events + ",")


def is_org_owner(forge, owner):
    """Whether an owner is an org (store Repo.OwnerKind 'org'): `orgs` names it, or the file shows an
    org label or milestone of it (Forge.org's rule)."""
    return owner in forge.orgs or any(x.get("org") for r in forge.owner_repos(owner)
                                      for x in r["labels"] + r["milestones"])


def access_grants(forge, r):
    """A repository's grants from its `access` list as (user, role, source): the repo_access rows
    (source `direct`) and team grants (source `team <name>`). A plain username is a `write` grant
    (guess: the file format had no roles, and the bot needs write on every repository it works
    on). Without `access`, `me` alone holds a write grant (the guess Forge.reachable documents)."""
    if "access" not in r:
        return [(forge.me, "write", "direct")]
    out = []
    for g in r["access"]:
        if isinstance(g, str):
            out.append((g, "write", "direct"))
        else:
            out.append((g["user"], g["role"], "team " + g["team"] if g.get("team") else "direct"))
    return out


def effective_access(forge, r):
    """store/repos.go EffectiveAccess: every account that reaches the repository with its highest
    role (read < write < admin) and where that role comes from, collected in this order, the first
    source of the highest role winning: the owner of a user-owned repository (admin, `owner`), the
    owning org's admins (admin, `org admin`), direct grants (`direct`), team grants (`team <name>`,
    highest role first, then by team name), the org's members (the org's members_role, `org
    member`; `none` adds nobody); sorted by username. The file's `admins` are admin grants (the
    simulator's CanAdmin reads them); guess: they count as direct grants here, and without
    `admins` `me` holds one."""
    rank = {"read": 1, "write": 2, "admin": 3}
    best, order = {}, []

    def add(user, role, source):
        if role not in rank:
            return
        if user not in best:
            order.append(user)
            best[user] = (role, source)
        elif rank[role] > rank[best[user][0]]:
            best[user] = (role, source)

    owner = owner_of(r)
    org = is_org_owner(forge, owner)
    if not org:
        add(owner, "admin", "owner")
    else:
        for u in (forge.orgs.get(owner) or {}).get("admins") or []:
            add(u, "admin", "org admin")
    grants = access_grants(forge, r)
    for u, role, source in grants:
        if source == "direct":
            add(u, role, source)
    for u in (r["admins"] if "admins" in r else [forge.me]):
        add(u, "admin", "direct")
    teams = [g for g in grants if g[2] != "direct"]
    for u, role, source in sorted(teams, key=lambda g: (-rank[g[1]], g[2])):
        add(u, role, source)
    if org:
        o = forge.orgs.get(owner) or {}
        for u in o.get("members") or []:
            add(u, o.get("members_role", "write"), "org member")
    return [{"user": u, "role": best[u][0], "source": best[u][1]} for u in sorted(order)]


def can_admin(forge, user, r):
    """policy/access.go CanAdmin with store AccessRole's effective role: the owner of a user-owned
    repository, an `admin` grant (explicit or through a team), or an admin of the owning org. The
    file names the repository's admins in `admins` and the org's in `orgs.<org>.admins`.
    guess: a repository without `admins` is administered by `me` alone, as a repository without
    `access` is granted to `me` alone (the bot's own repositories)."""
    owner = owner_of(r)
    if is_org_owner(forge, owner):
        if user in ((forge.orgs.get(owner) or {}).get("admins") or []):
            return True
    elif user == owner:
        return True
    if any(g[0] == user and g[1] == "admin" for g in access_grants(forge, r)):
        return True
    return user in (r["admins"] if "admins" in r else [forge.me])


def can_read(forge, user, r):
    """policy/access.go CanRead: the owner, any account on a public repository, any grant."""
    return r.get("visibility", "public") == "public" or forge.reachable(user, r) or can_admin(forge, user, r)


def can_write(forge, user, r):
    """policy/access.go CanWrite over store/repos.go AccessRole: the strongest role the account holds
    through its own grant, the owning org (admin, or members_role for a member), a team grant, or
    ownership, `write` or `admin`. It is `effective_access`'s role for the account.
    guess (the known departure, docs/gitbay-conformance.md): a repository whose file has no
    `access` list lets every account write, as the simulator always did; one with `access` (or
    after a `repo access revoke` wrote one) follows the roles."""
    if "access" not in r:
        return True
    return any(e["user"] == user and e["role"] in ("write", "admin") for e in effective_access(forge, r))


def resolve_admin_repo(ctx, path):
    """control/repo.go resolveRepo(c, path, policy.CanAdmin): an unknown or unreadable repository
    exits 3 `repository X not found`, a readable one the caller may not administer exits 4
    `permission denied on X; ask its owner for access` (repo.go at 02a67948)."""
    r = ctx.forge.repo(path)
    if not can_admin(ctx.forge, ctx.user, r):
        if not can_read(ctx.forge, ctx.user, r):
            raise CmdError(EXIT_NOT_FOUND, "repository %s not found" % path)
        raise CmdError(EXIT_DENIED, "permission denied on %s; ask its owner for access" % path)
    return r


def h_repo_access_list(ctx, fl, p):
    """`repo access list <owner/name>` (control/repo.go runAccessList): exactly one positional (else
    the usage, exit 2), CanAdmin through resolveRepo (unknown or unreadable: exit 3, readable
    without admin: exit 4), then store EffectiveAccess as [{user, role, source}]. A Go nil slice
    is `null`, which an admin's own row rules out in practice."""
    r = resolve_admin_repo(ctx, fl.pos[0])
    return effective_access(ctx.forge, r) or None


def revoke_direct_grant(forge, r, user):
    """store/repos.go RevokeAccess: deletes the account's own repo_access row (`subject_kind =
    'user'`), ErrNotFound when there is none. In the file that row is a plain username or a grant
    without `team` in `access`, or a name in `admins` (the simulator's direct admin grants); a team
    grant, org membership and ownership are other rows and stay. The implicit `access: [me]` and
    `admins: [me]` of a file without those keys are grants too: revoking `me` writes the list
    without it (guess: that is what the two guesses stand for). Answers whether a grant went."""
    gone = False
    access = r["access"] if "access" in r else [forge.me]
    kept = [g for g in access if not (g == user or (isinstance(g, dict) and g["user"] == user and not g.get("team")))]
    if len(kept) != len(access):
        r["access"], gone = kept, True
    admins = r["admins"] if "admins" in r else [forge.me]
    if user in admins:
        r["admins"], gone = [a for a in admins if a != user], True
    return gone


def h_repo_access_revoke(ctx, fl, p):
    """`repo access revoke <owner/name> <user>` (control/repo.go runAccessRevoke, 02a67948): exactly
    two positionals (else the usage, exit 2, before any lookup), CanAdmin through resolveRepo (3 for
    an unknown or unreadable repository, 4 for one the caller may read but not administer), the
    account (3 `no such user "x"`), its direct grant (store RevokeAccess; none is exit 3 `<user> has
    no grant on <repo>`). Answers {"revoked": username}. It records no event; an archived
    repository does not refuse it (refuseArchived's comment: access commands stay available). Every
    later check reads the new grants: can_read, can_write, can_admin, effective_access, and the
    merge queue at its next attempt (mergequeue.go attemptLocked)."""
    r = resolve_admin_repo(ctx, fl.pos[0])
    user = fl.pos[1]
    if user not in ctx.forge.users:
        raise CmdError(EXIT_NOT_FOUND, "no such user %s" % go_quote(user))
    if not revoke_direct_grant(ctx.forge, r, user):
        raise CmdError(EXIT_NOT_FOUND, "%s has no grant on %s" % (user, r["path"]))
    ctx.applied = True
    return {"revoked": user}


def go_parse_int(s):
    """strconv.ParseInt(s, 10, 64): an optional sign and decimal digits."""
    if not re.fullmatch(r"[+-]?[0-9]+", s or "") or not -(1 << 63) <= int(s) < (1 << 63):
        raise ValueError(s)
    return int(s)


def check_event_names(events):
    """control/events.go checkEventNames: `*`, or comma-separated names (spaces around a name are
    trimmed for the check only) each one of EventKinds; exit 2 otherwise."""
    if events == "*":
        return
    for k in events.split(","):
        k = k.strip()
        if not k:
            raise CmdError(EXIT_USAGE, "empty event name in --events")
        if k not in WEBHOOK_EVENT_KINDS:
            raise CmdError(EXIT_USAGE, "%s is not an event this forge records; known events are: %s"
                           % (json.dumps(k), ", ".join(WEBHOOK_EVENT_KINDS)))


_FORBIDDEN_NETS = [ipaddress.ip_network(n) for n in (
    "127.0.0.0/8", "::1/128",  # IsLoopback
    "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7",  # IsPrivate
    "169.254.0.0/16", "fe80::/10",  # IsLinkLocalUnicast
    "224.0.0.0/4", "ff00::/8",  # IsMulticast
    "0.0.0.0/32", "::/128",  # IsUnspecified
    "100.64.0.0/10")]  # cgnat


def forbidden_address(text):
    """webhook.go isForbidden: loopback, private, link-local unicast, multicast, unspecified or the
    shared 100.64.0.0/10 space, as Go's net.IP methods define them (an IPv4-mapped IPv6 address
    counts as its IPv4 address, as in Go)."""
    ip = ipaddress.ip_address(text.split("%")[0])
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return any(ip.version == n.version and ip in n for n in _FORBIDDEN_NETS)


def url_hostname(parts):
    """url.URL.Hostname(): the host without port or brackets, case kept."""
    host = parts.netloc.rpartition("@")[2]
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.partition(":")[0]


def resolve_host(host):
    """net.LookupIP: every address of host (an address literal is itself)."""
    out = []
    for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_TCP):
        addr = info[4][0]
        if addr not in out:
            out.append(addr)
    return out


def validate_hook_url(raw, allow_local):
    """webhook.go ValidateURL; a refusal is exit 1 with the reason (control/webhook.go runWebhookAdd)."""
    try:
        parts = urlsplit(raw)
        parts.port
    except ValueError as e:
        raise CmdError(EXIT_FAILURE, "invalid URL: %s" % e)
    if parts.scheme not in ("http", "https"):
        raise CmdError(EXIT_FAILURE, "webhook URLs must be http or https")
    host = url_hostname(parts)
    if not host:
        raise CmdError(EXIT_FAILURE, "webhook URL has no host")
    if allow_local:
        return
    try:
        ips = resolve_host(host)
    except (OSError, UnicodeError) as e:
        raise CmdError(EXIT_FAILURE, "cannot resolve %s: %s" % (host, e))
    if any(forbidden_address(ip) for ip in ips):
        raise CmdError(EXIT_FAILURE, "webhook target %s resolves to a private or local address; refusing (SSRF)"
                       % host)


def h_webhook_add(ctx, fl, p):
    """control/webhook.go runWebhookAdd, its checks in gitbay's order: the flags (exit 2), both
    positionals (usage), a `--secret` other than `-` (exit 2: a secret never travels in argv),
    CanAdmin (3/4), the event names (exit 2, before the URL, which may need DNS), ValidateURL
    (exit 1), the secret from stdin (trailing CR/LF trimmed; none is exit 2). Answers
    {id, url, events}; `events` is stored as given (`*` without --events). NeedsRecentSignIn holds
    back only a stale browser session (control/reauth_test.go TestRecentSignInGate: SSH, the API and
    the host carry no session), so an API token is never refused for it."""
    path = fl.pos[0] if fl.pos else ""
    url = fl.pos[1] if len(fl.pos) > 1 else ""
    events = fl.value("--events") if fl.has("--events") else "*"
    if not path or not url:
        raise usage_error("", WEBHOOK_ADD_USAGE)
    if fl.has("--secret") and fl.value("--secret") != "-":
        raise CmdError(EXIT_USAGE, "the secret is read from stdin, never argv: pipe it and pass --secret - "
                                   "(printf %s SECRET | ... --secret -)")
    r = resolve_admin_repo(ctx, path)
    check_event_names(events)
    validate_hook_url(url, ctx.sim.webhook_allow_local)
    secret = ""
    if fl.has("--secret"):
        raw = ctx.stdin.encode("utf-8")[:WEBHOOK_SECRET_MAX].decode("utf-8", "replace")
        secret = raw.rstrip("\r\n")
        if not secret:
            raise CmdError(EXIT_USAGE, "no secret on stdin (pipe it: printf %s SECRET | ... --secret -)")
    hook = {"id": ctx.forge.next_hook_id, "url": url, "events": events, "active": True}
    if secret:
        hook["secret"] = secret
    ctx.forge.next_hook_id += 1
    r["webhooks"].append(hook)
    ctx.applied = True
    return {"id": hook["id"], "url": url, "events": events}


def h_webhook_list(ctx, fl, p):
    """control/webhook.go runWebhookList: CanAdmin; rows {id, url, events, active, has_secret} by id
    (store ListWebhooks); `[]` when none. The secret itself is never shown."""
    r = resolve_admin_repo(ctx, fl.pos[0])
    return [{"id": h["id"], "url": h["url"], "events": h["events"], "active": h["active"],
             "has_secret": bool(h.get("secret"))} for h in sorted(r["webhooks"], key=lambda h: h["id"])]


def h_webhook_remove(ctx, fl, p):
    """control/webhook.go runWebhookRemove: CanAdmin, then the id (`bad webhook id "x"`, exit 2),
    then store RemoveWebhook (another repository's or no such webhook: exit 3). Its deliveries go
    with it (ON DELETE CASCADE). Answers {removed: id}."""
    r = resolve_admin_repo(ctx, fl.pos[0])
    try:
        hook_id = go_parse_int(fl.pos[1])
    except ValueError:
        raise CmdError(EXIT_USAGE, "bad webhook id %s" % json.dumps(fl.pos[1]))
    hook = next((h for h in r["webhooks"] if h["id"] == hook_id), None)
    if hook is None:
        raise CmdError(EXIT_NOT_FOUND, "no webhook %d on %s" % (hook_id, r["path"]))
    r["webhooks"].remove(hook)
    ctx.forge.deliveries = [d for d in ctx.forge.deliveries if d["webhook_id"] != hook_id]
    ctx.applied = True
    return {"removed": hook_id}


def delivery_status(d):
    """store ListDeliveries: delivered, else failed (dead-lettered), else pending."""
    if d["delivered_at"] is not None:
        return "delivered"
    if d["failed_at"] is not None:
        return "failed"
    return "pending"


def h_webhook_deliveries(ctx, fl, p):
    """control/webhook.go runWebhookDeliveries: --limit (strconv.Atoi, 1..200, default 20) is
    checked before the repository; CanAdmin; the repository's deliveries newest first (store
    ListDeliveries, ORDER BY id DESC) as {id, url, event, status, attempts, last_status?,
    last_error?} (omitempty: a transport error has no status); `[]` when none."""
    limit = 20
    if fl.has("--limit"):
        v = fl.value("--limit")
        try:
            n = go_parse_int(v)
        except ValueError:
            n = 0
        if not 1 <= n <= 200:
            raise CmdError(EXIT_USAGE, "--limit must be 1..200")
        limit = n
    if not fl.pos or not fl.pos[0]:
        raise usage_error("", WEBHOOK_DELIVERIES_USAGE)
    r = resolve_admin_repo(ctx, fl.pos[0])
    hooks = {h["id"]: h for h in r["webhooks"]}
    rows = []
    for d in sorted((d for d in ctx.forge.deliveries if d["webhook_id"] in hooks), key=lambda d: -d["id"])[:limit]:
        row = {"id": d["id"], "url": hooks[d["webhook_id"]]["url"], "event": d["event"]["kind"],
               "status": delivery_status(d), "attempts": d["attempts"]}
        if d["last_status"]:
            row["last_status"] = d["last_status"]
        if d["last_error"]:
            row["last_error"] = d["last_error"]
        rows.append(row)
    return rows


def h_webhook_redeliver(ctx, fl, p):
    """control/webhook.go runWebhookRedeliver; store Redeliver clears delivered_at, failed_at and
    next_attempt_at and leaves `attempts` as it is, so a dead-lettered delivery redelivered gets one
    more try before it is dead-lettered again (webhook.go fail: attempts + 1 >= MaxAttempts).
    Another repository's or no such delivery: exit 3. Answers {requeued: id}."""
    r = resolve_admin_repo(ctx, fl.pos[0])
    try:
        delivery_id = go_parse_int(fl.pos[1])
    except ValueError:
        raise CmdError(EXIT_USAGE, "bad delivery id %s" % json.dumps(fl.pos[1]))
    hooks = {h["id"] for h in r["webhooks"]}
    d = next((d for d in ctx.forge.deliveries if d["id"] == delivery_id and d["webhook_id"] in hooks), None)
    if d is None:
        raise CmdError(EXIT_NOT_FOUND, "no delivery %d on %s" % (delivery_id, r["path"]))
    d["delivered_at"] = d["failed_at"] = d["next_at"] = None
    ctx.applied = True
    return {"requeued": delivery_id}


def go_json(obj):
    """encoding/json.Marshal's bytes for obj: compact, keys in the order given, non-ASCII as is,
    and <, >, &, U+2028, U+2029 escaped (Marshal escapes HTML, also inside a json.RawMessage)."""
    text = json.dumps(obj, separators=(",", ":"), ensure_ascii=False)
    for a, b in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"), ("\u2028", "\\u2028"),
                 ("\u2029", "\\u2029")):
        text = text.replace(a, b)
    return text.encode("utf-8")


def delivery_body(event):
    """webhook.go deliver's payload: {event, repo, actor (omitempty), created_at, data}, `data`
    being the event's data_json as recorded (store DueDeliveries joins webhook_deliveries, webhooks
    and events). The simulator keeps each kind's data keys in the order gitbay writes them where
    the source shows it (push: control/refsupdated.go RefsUpdated's literal `{"ref","old","new",
    "forced","deleted"}`); guess: for the other kinds, the order the simulator records them in."""
    body = {"event": event["kind"], "repo": event["repo"]}
    if event.get("actor"):
        body["actor"] = event["actor"]
    body["created_at"] = event["created_at"]
    body["data"] = event.get("data") or {}
    return go_json(body)


class Deliverer:
    """webhook.go Deliverer on a thread: every WEBHOOK_TICK / --time-scale seconds it takes up to 20
    due deliveries in id order (store DueDeliveries: not delivered, not dead-lettered, no next
    attempt or one that has come) and POSTs each in turn. The simulator's time runs on the real
    clock scaled by --time-scale (the tick, the backoff and the client timeout all shrink by it;
    guess: the timeout too, so that a test can reach it), not on --clock, so a frozen clock still
    delivers. `paused` (the `deliveries_paused` control) skips ticks: deliveries stay pending. Every
    tick done, paused or not, counts in the stats' `webhooks` `ticks`, which a test waits for."""

    def __init__(self, sim, allow_local, retry_base, scale):
        self.sim = sim
        self.allow_local = allow_local
        self.retry_base = retry_base
        self.scale = scale
        self.paused = False
        self.stopping = threading.Event()
        self.conn_lock = threading.Lock()
        self.conn = None  # the connection of the POST under way, which stop() closes
        self.thread = threading.Thread(target=self.run, name="webhook-deliverer", daemon=True)

    def start(self):
        self.thread.start()

    def stop(self, wait=2.0):
        """Ends the thread: no new tick, and a POST under way is cut off (gitbay cancels the
        request's context, webhook.go Run)."""
        self.stopping.set()
        with self.conn_lock:
            if self.conn is not None and self.conn.sock is not None:
                try:
                    self.conn.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        if self.thread.is_alive():
            self.thread.join(wait)

    def run(self):
        while not self.stopping.wait(WEBHOOK_TICK / self.scale):
            if not self.paused:
                for job in self.due():
                    if self.stopping.is_set() or self.paused:
                        break
                    self.deliver(job)
            self.sim.count("webhooks", "ticks")

    def due(self):
        forge = self.sim.forge
        now = time.monotonic()
        jobs = []
        with forge.lock:
            for d in sorted(forge.deliveries, key=lambda d: d["id"]):
                if len(jobs) >= WEBHOOK_BATCH:
                    break
                if d["delivered_at"] is not None or d["failed_at"] is not None:
                    continue
                if d["next_at"] is not None and d["next_at"] > now:
                    continue
                _, hook = forge.hook(d["webhook_id"])
                if hook is None:
                    continue
                jobs.append({"id": d["id"], "url": hook["url"], "secret": hook.get("secret", ""),
                             "kind": d["event"]["kind"], "attempts": d["attempts"],
                             "body": delivery_body(d["event"])})
        return jobs

    def deliver(self, job):
        """webhook.go deliver: the headers, the signature when the hook has a secret, 2xx delivered,
        anything else (a redirect is not followed) or a transport error a failed attempt."""
        headers = {"Content-Type": "application/json", "User-Agent": "gitbay-webhook",
                   "X-Gitbay-Event": job["kind"], "X-Gitbay-Delivery": str(job["id"]),
                   # Go's http.Transport asks for gzip by itself.
                   "Accept-Encoding": "gzip"}
        if job["secret"]:
            mac = hmac.new(job["secret"].encode("utf-8"), job["body"], hashlib.sha256).hexdigest()
            headers["X-Gitbay-Signature-256"] = "sha256=" + mac
        self.sim.count("webhooks", "attempted")
        try:
            status, error = self.post(job["url"], job["body"], headers)
        except Exception as e:  # a simulator bug fails the attempt; it must not end the thread
            status, error = None, 'Post "%s": %r' % (job["url"], e)
        if status is not None and 200 <= status < 300:
            self.mark_delivered(job, status)
        else:
            self.fail(job, status or 0, error or "endpoint returned %d" % status)

    def post(self, url, body, headers):
        """One POST with gitbay's client: 10 s in all, a 5 s dial, no redirects followed, at most
        4096 bytes of the answer read. Returns (status, None) or (None, error text). guess: the
        error texts follow Go's url.Error wording (`Post "URL": ...`)."""
        deadline = time.monotonic() + WEBHOOK_TIMEOUT / self.scale
        parts = urlsplit(url)
        host = url_hostname(parts)
        try:
            port = parts.port or (443 if parts.scheme == "https" else 80)
        except ValueError as e:
            return None, 'parse "%s": %s' % (url, e)
        target = parts.path or "/"
        if parts.query:
            target += "?" + parts.query
        try:
            ips = resolve_host(host)
        except (OSError, UnicodeError) as e:
            return None, 'Post "%s": dial tcp: lookup %s: %s' % (url, host, e)
        if not self.allow_local:
            # webhook.go New's DialContext checks the addresses again when it connects.
            for ip in ips:
                if forbidden_address(ip):
                    return None, 'Post "%s": refusing connection to private address %s' % (url, ip)
        dial = min(WEBHOOK_DIAL_TIMEOUT / self.scale, deadline - time.monotonic())
        if parts.scheme == "https":
            conn = http.client.HTTPSConnection(host, port, timeout=dial)
        else:
            conn = http.client.HTTPConnection(ips[0], port, timeout=dial)  # Go dials ips[0]
        headers = dict(headers, Host=parts.netloc.rpartition("@")[2])
        with self.conn_lock:
            if self.stopping.is_set():
                return None, 'Post "%s": context canceled' % url
            self.conn = conn
        try:
            conn.connect()
            conn.sock.settimeout(max(0.001, deadline - time.monotonic()))
            conn.request("POST", target, body=body, headers=headers)
            resp = conn.getresponse()
            resp.read(WEBHOOK_BODY_READ)
            return resp.status, None
        except socket.timeout:
            return None, 'Post "%s": context deadline exceeded (Client.Timeout exceeded while awaiting headers)' % url
        except ConnectionRefusedError:
            return None, 'Post "%s": dial tcp %s:%d: connect: connection refused' % (url, ips[0], port)
        except (OSError, http.client.HTTPException) as e:
            return None, 'Post "%s": %s' % (url, e)
        finally:
            with self.conn_lock:
                self.conn = None
            conn.close()

    def mark_delivered(self, job, status):
        """store MarkDelivered: delivered_at now, attempts + 1, last_status, no last_error."""
        self.sim.count("webhooks", "delivered")
        forge = self.sim.forge
        with forge.lock:
            d = next((d for d in forge.deliveries if d["id"] == job["id"]), None)
            if d is not None:
                d["delivered_at"] = fmt_ms(self.sim.clock.now())
                d["attempts"] += 1
                d["last_status"] = status
                d["last_error"] = None

    def fail(self, job, status, msg):
        """webhook.go fail: this attempt is attempts + 1; at MaxAttempts (5) the delivery is
        dead-lettered (store MarkAttemptFailed with no next time: failed_at), else the next attempt
        waits RetryBase << (attempt - 1)."""
        self.sim.count("webhooks", "failed")
        attempt = job["attempts"] + 1
        forge = self.sim.forge
        with forge.lock:
            d = next((d for d in forge.deliveries if d["id"] == job["id"]), None)
            if d is None:
                return
            d["attempts"] += 1
            d["last_status"] = status
            d["last_error"] = msg
            if attempt >= WEBHOOK_MAX_ATTEMPTS:
                d["failed_at"] = fmt_ms(self.sim.clock.now())
                self.sim.count("webhooks", "dead_lettered")
            else:
                d["next_at"] = time.monotonic() + self.retry_base * (1 << (attempt - 1)) / self.scale


REPO = "<owner/name>"
SPECS = {
    ("whoami",): Spec(h_whoami, "whoami", True),
    ("feed",): Spec(h_feed, "feed [--limit <n>] [--cursor <c>]", True, paging="feed"),
    ("repo", "list"): Spec(h_repo_list, "repo list [--limit <n>] [--cursor <c>]", True, paging="repo",
                           numeric=False),
    ("repo", "show"): Spec(h_repo_show, "repo show " + REPO, True, pos=(1, 1)),
    ("repo", "refs"): Spec(h_repo_refs, "repo refs " + REPO, True, pos=(1, 1)),
    ("repo", "tree"): Spec(h_repo_tree, REPO_TREE_USAGE, True, "custom"),
    ("repo", "cat"): Spec(h_repo_cat, REPO_CAT_USAGE, True, "custom"),
    ("repo", "access", "list"): Spec(h_repo_access_list, "repo access list " + REPO, True, pos=(1, 1)),
    ("repo", "access", "revoke"): Spec(h_repo_access_revoke, "repo access revoke %s <user>" % REPO, False,
                                       pos=(2, 2)),
    ("repo", "deps", "status"): Spec(h_deps_status, "repo deps status " + REPO, True, pos=(1, 1)),
    ("label", "list"): Spec(h_label_list, "label list " + REPO, True, pos=(1, 1)),
    ("label", "set"): Spec(h_label_set, "label set %s <label> [--color <rrggbb>]" % REPO, False, "flags", (2, 2),
                           values=("--color",)),
    ("milestone", "list"): Spec(h_milestone_list, "milestone list %s [--state open|closed|all]" % REPO, True,
                                "flags", (1, 1), values=("--state",)),
    ("milestone", "close"): Spec(h_milestone_close, "milestone close %s <title>" % REPO, False, pos=(2, 2)),
    ("milestone", "reopen"): Spec(h_milestone_reopen, "milestone reopen %s <title>" % REPO, False, pos=(2, 2)),
    ("org", "milestone", "list"): Spec(h_org_milestone_list, "org milestone list <org> [--state open|closed|all]",
                                       True, "flags", (1, 1), values=("--state",)),
    ("org", "milestone", "close"): Spec(h_org_milestone_close, "org milestone close <org> <title>", False,
                                        pos=(2, 2)),
    ("org", "milestone", "reopen"): Spec(h_org_milestone_reopen, "org milestone reopen <org> <title>", False,
                                         pos=(2, 2)),
    ("issue", "list"): Spec(h_issue_list, "issue list %s [--state open|closed|all] [--label <l>] "
                            "[--assignee <user>] [--author <user>] [--milestone <title>|none] [--search <text>] "
                            "[--limit <n>] [--cursor <c>]" % REPO, True, "custom", values=ISSUE_LIST_SPEC_VALUES),
    ("issue", "show"): Spec(h_issue_show, "issue show %s <n>" % REPO, True, pos=(2, 2)),
    ("issue", "label"): Spec(h_issue_label, "issue label %s <n> [--add <label>]... [--remove <label>]..." % REPO,
                             False, "flags", (2, 2), "at_least", multi=("--add", "--remove")),
    ("issue", "comment"): Spec(h_issue_comment, "issue comment %s <n> (--message <m> | --file -) [--format md|org]"
                               % REPO, False, "flags", (2, 2), "at_least",
                               values=("--message", "--file", "--format"), reads_stdin=True),
    ("issue", "create"): Spec(h_issue_create, "issue create %s --title <t> [--body <b> | --file -] [--format md|org]"
                              % REPO, False, "flags", (1, 1), values=("--title", "--body", "--file", "--format"),
                              reads_stdin=True),
    ("issue", "edit"): Spec(h_issue_edit, "issue edit %s <n> [--title <t>] [--body <b> | --file -] [--format md|org]"
                            % REPO, False, "flags", (2, 2), "at_least",
                            values=("--title", "--body", "--file", "--format"), reads_stdin=True),
    ("issue", "close"): Spec(h_issue_close, "issue close %s <n>" % REPO, False, pos=(2, 2)),
    ("issue", "reopen"): Spec(h_issue_reopen, "issue reopen %s <n>" % REPO, False, pos=(2, 2)),
    ("issue", "assign"): Spec(h_issue_assign, "issue assign %s <n> [--add <user>]... [--remove <user>]..." % REPO,
                              False, "flags", (2, 2), "at_least", multi=("--add", "--remove")),
    ("issue", "milestone"): Spec(h_issue_milestone, "issue milestone %s <n> <title|none>" % REPO, False,
                                 pos=(3, 3)),
    ("mr", "list"): Spec(h_mr_list, "mr list %s [--state open|merged|closed|source_gone|all] [--label <l>] "
                         "[--author <user>] [--milestone <title>|none] [--search <text>] [--limit <n>] "
                         "[--cursor <c>]" % REPO, True, "custom",
                         values=("--state", "--label", "--author", "--milestone", "--search")),
    ("mr", "show"): Spec(h_mr_show, "mr show %s <n>" % REPO, True, pos=(2, 2)),
    # mrRef runs before runMRRevisions counts the words, so a third word is refused after the lookup.
    ("mr", "revisions"): Spec(h_mr_revisions, "mr revisions %s <n>" % REPO, True, pos=(2, 2), check="at_least"),
    ("mr", "diff"): Spec(h_mr_diff, "mr diff %s <n>" % REPO, True, pos=(2, 2), check="at_least"),
    ("mr", "label"): Spec(h_mr_label, "mr label %s <n> [--add <label>]... [--remove <label>]..." % REPO, False,
                          "flags", (2, 2), "at_least", multi=("--add", "--remove")),
    ("mr", "comment"): Spec(h_mr_comment, "mr comment %s <n> (--message <m> | --file -) [--format md|org]" % REPO,
                            False, "flags", (2, 2), "at_least", values=("--message", "--file", "--format"),
                            reads_stdin=True),
    ("issue", "react"): Spec(h_issue_react, "issue react %s <n> [--comment <id>] <reaction> [--remove]" % REPO, False,
                             "flags", (0, 3), values=("--comment",), bools=("--remove",)),
    ("mr", "react"): Spec(h_mr_react, "mr react %s <n> [--comment <id>] <reaction> [--remove]" % REPO, False,
                          "flags", (0, 3), values=("--comment",), bools=("--remove",)),
    ("mr", "edit"): Spec(h_mr_edit, "mr edit %s <n> [--title <t>] [--body <b> | --file -] [--format md|org] "
                         "[--superseded-by <m>|none]" % REPO, False, "flags", (2, 2), "at_least",
                         values=("--title", "--body", "--file", "--format", "--superseded-by"), reads_stdin=True),
    ("mr", "ready"): Spec(h_mr_ready, "mr ready %s <n>" % REPO, False, pos=(2, 2)),
    ("mr", "draft"): Spec(h_mr_draft, "mr draft %s <n>" % REPO, False, pos=(2, 2)),
    ("mr", "close"): Spec(h_mr_close, "mr close %s <n> [--by <m>]" % REPO, False, "flags", (2, 2),
                          values=("--by",)),
    ("mr", "merge"): Spec(h_mr_merge, "mr merge %s <n> [--strategy ff|merge|squash|rebase] [--when-ready | --cancel]"
                          % REPO, False, "flags", (2, 2), "at_least", values=("--strategy",),
                          bools=("--when-ready", "--cancel")),
    ("build", "list"): Spec(h_build_list, "build list %s [--ref <branch>] [--status <state>] [--job <name>] "
                            "[--limit <n>] [--cursor <c>]" % REPO, True, "flags", (1, 1),
                            values=("--ref", "--status", "--job"), paging="build"),
    ("build", "show"): Spec(h_build_show, "build show %s <n>" % REPO, True, pos=(2, 2)),
    ("build", "cancel"): Spec(h_build_cancel, "build cancel %s <n>" % REPO, False, pos=(2, 2)),
    ("status", "set"): Spec(h_status_set, STATUS_SET_USAGE, False, "custom"),
    ("status", "list"): Spec(h_status_list, "status list %s <sha>" % REPO, True, pos=(2, 2)),
    ("webhook", "add"): Spec(h_webhook_add, WEBHOOK_ADD_USAGE, False, "flags", (0, 2),
                             values=("--secret", "--events"), reads_stdin=True),
    ("webhook", "list"): Spec(h_webhook_list, WEBHOOK_LIST_USAGE, True, pos=(1, 1)),
    ("webhook", "remove"): Spec(h_webhook_remove, WEBHOOK_REMOVE_USAGE, False, pos=(2, 2)),
    ("webhook", "deliveries"): Spec(h_webhook_deliveries, WEBHOOK_DELIVERIES_USAGE, True, "flags", (0, 1),
                                    values=("--limit",)),
    ("webhook", "redeliver"): Spec(h_webhook_redeliver, WEBHOOK_REDELIVER_USAGE, False, pos=(2, 2)),
}


def run_command(ctx, path, args):
    """Parses args the way gitbay's parser for this command would and runs the handler."""
    spec = SPECS.get(path)
    if spec is None:
        raise CmdError(EXIT_PROTOCOL, "simulator: %s is a gitbay command the simulator does not simulate"
                       % " ".join(path))
    args = [a for a in args if a != "--json"]
    if spec.parser == "custom":
        return spec.handler(ctx, args)
    p = Page()
    if spec.paging:
        args, p = strip_paging(args, spec.paging, spec.numeric)
    lo, hi = spec.pos
    if spec.parser == "raw":
        fl = Flags()
        fl.pos = list(args)
        if len(fl.pos) < lo or (spec.check == "exact" and len(fl.pos) > hi):
            raise usage_error("", spec.usage)
    else:
        fl = parse_flags(args, spec, hi if spec.check == "exact" else -1)
        if len(fl.pos) < lo:
            raise usage_error("", spec.usage)
    return spec.handler(ctx, fl, p)


# ---------------------------------------------------------------------------------------------
# Rate limiting


class Bucket:
    """A token bucket on the monotonic clock; rate in tokens per real second."""

    def __init__(self, rate, burst):
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = time.monotonic()

    def refill(self):
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now

    def wait(self):
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate


class Limiter:
    """gitbay's two limiters: the API's per-account read/write buckets and the account write limiter."""

    def __init__(self, api_rate, write_rate, scale):
        self.api_rate = 120.0 if api_rate == 0 else float(api_rate)
        self.write_rate = 60.0 if write_rate == 0 else float(write_rate)
        self.scale = scale
        self.lock = threading.Lock()
        self.api = {}
        self.account = {}

    def api_allow(self, user, is_write):
        """Returns 0 when the request may go on, else the seconds to wait (already scaled)."""
        if self.api_rate < 0:
            return 0
        with self.lock:
            if user not in self.api:
                wr = self.api_rate / 10
                self.api[user] = (Bucket(self.api_rate / 60 * self.scale, self.api_rate),
                                  Bucket(wr / 60 * self.scale, max(1.0, wr)))
            reads, writes = self.api[user]
            reads.refill()
            writes.refill()
            wait = max(reads.wait(), writes.wait() if is_write else 0.0)
            if wait > 0:
                return wait
            reads.tokens -= 1
            if is_write:
                writes.tokens -= 1
            return 0

    def account_allow(self, user):
        if self.write_rate < 0:
            return 0
        with self.lock:
            b = self.account.get(user)
            if b is None:
                b = self.account[user] = Bucket(self.write_rate / 60 * self.scale, self.write_rate)
            b.refill()
            if b.tokens < 1:
                return b.wait()
            b.tokens -= 1
            return 0


def retry_seconds(wait):
    return max(1, int(math.ceil(wait - 1e-9)))


def too_many_writes(rate, wait):
    return "too many writes: %d a minute per account; try again in %ds" % (rate, retry_seconds(wait))


# ---------------------------------------------------------------------------------------------
# Faults

FAULT_KINDS = ("500", "503", "429", "reset", "reset-after", "slow", "hold", "malformed", "truncated", "huge",
               "401", "too-many-writes")
FAULT_KEYS = ("rate", "times", "command", "method", "retry_after", "delay", "honest", "after", "bytes")


class Fault:
    """One injected failure: KIND[,key=value...] (see docs/forge-state.md, "Faults")."""

    def __init__(self, spec):
        parts = [x for x in spec.split(",")]
        self.kind = parts[0].strip()
        if self.kind not in FAULT_KINDS:
            raise ValueError("unknown fault kind %r; kinds: %s" % (self.kind, ", ".join(FAULT_KINDS)))
        opts = {}
        for kv in parts[1:]:
            k, sep, v = kv.partition("=")
            k = k.strip()
            if not sep or k not in FAULT_KEYS:
                raise ValueError("bad fault option %r; keys: %s" % (kv, ", ".join(FAULT_KEYS)))
            opts[k] = v.strip()
        self.spec = spec
        self.rate = float(opts.get("rate", 1))
        self.times = int(opts["times"]) if "times" in opts else None
        self.command = opts.get("command", "").split()
        self.method = opts.get("method", "").upper() or None
        if self.method not in (None, "GET", "POST"):
            raise ValueError("method must be GET or POST")
        self.retry_after = int(opts.get("retry_after", 1))
        self.delay = float(opts.get("delay", 1))
        self.honest = opts.get("honest", "0") in ("1", "true", "yes")
        self.after = int(opts.get("after", 0))
        self.bytes = int(opts.get("bytes", 20 << 20))
        if self.after < 0 or self.bytes < 0:
            raise ValueError("after and bytes must not be negative")
        self.fired = 0
        self.seen = 0

    def matches(self, method, argv, is_write):
        if self.method and self.method != method:
            return False
        if self.command and argv[:len(self.command)] != self.command:
            return False
        if self.kind == "too-many-writes" and not is_write:
            return False
        return True


# ---------------------------------------------------------------------------------------------
# The server


def envelope(data=None, error=None, exit_code=None):
    out = {"protocol_version": PROTOCOL_VERSION}
    if error is not None:
        out["error"] = error
    else:
        out["data"] = data
    if exit_code is not None:
        out["exit_code"] = exit_code
    return out


def to_json(obj):
    return (json.dumps(obj, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


class Reply:
    def __init__(self, status, obj=None, headers=None, raw=None):
        self.status = status
        self.body = raw if raw is not None else (to_json(obj) if obj is not None else b"")
        self.headers = dict(headers or {})
        self.after = None  # "reset", "malformed", "truncated", "truncated-honest", "huge"
        self.padding = 0  # the whitespace a "huge" reply appends to its JSON


class Simulator:
    """Everything the handler threads share: forge, clock, tokens, limiters, faults, journal, stats."""

    def __init__(self, args, doc):
        self.forge = Forge(doc)
        self.clock = Clock(self.forge.now, args.time_scale, args.clock == "frozen")
        self.main_token = args.token
        self.tokens = {args.token: (self.forge.me, "full")}
        for spec in args.user_token:
            name, sep, tok = spec.partition("=")
            if not sep or not name or not tok:
                raise SystemExit("--user-token takes NAME=TOKEN")
            self.tokens[tok] = (name, "full")
        if args.read_only_token:
            self.tokens[args.read_only_token] = (self.forge.me, "read")
        # Token expiry (store api_tokens expires_at): only the main token can carry one here, given
        # by --token-expires or the `token_expires` control; None is a token without an expiry.
        self.expires = {args.token: parse_ts(args.token_expires) if getattr(args, "token_expires", None) else None}
        self.forge.credential_lapsed = self.credential_lapsed
        self.limiter = Limiter(args.api_rate, args.write_rate, args.time_scale)
        self.scale = args.time_scale
        self.random = random.Random(args.seed)
        self.faults = [Fault(s) for s in args.fault]
        self.revoked = False
        self.read_only = False
        self.control_lock = threading.Lock()
        self.released = threading.Condition()  # guards self.permits and self.drops
        self.drops = 0  # how many held requests are to end without running
        self.permits = 0
        self.journal = open(args.journal, "a", encoding="utf-8") if args.journal else None
        self.journal_lock = threading.Lock()
        self.seq = 0
        self.stats_lock = threading.Lock()
        self.stats = {"requests": 0, "reads": 0, "writes": 0, "rate_limited": 0, "too_many_writes": 0,
                      "unauthorized": 0, "not_modified": 0, "in_flight": 0, "held": 0, "faults": {}, "commands": {},
                      "methods": {}, "statuses": {},
                      "webhooks": {"attempted": 0, "delivered": 0, "failed": 0, "dead_lettered": 0,
                                   "ticks": 0}}
        self.max_blob_bytes = getattr(args, "max_blob_bytes", MAX_BLOB_BYTES)
        self.webhook_allow_local = getattr(args, "webhook_allow_local", False)
        self.deliverer = Deliverer(self, self.webhook_allow_local,
                                   getattr(args, "webhook_retry_base", WEBHOOK_RETRY_BASE), args.time_scale)

    # bookkeeping

    def count(self, key, sub=None, n=1):
        with self.stats_lock:
            if sub is None:
                self.stats[key] = self.stats.get(key, 0) + n
            else:
                self.stats[key][sub] = self.stats[key].get(sub, 0) + n

    def journal_write(self, user, argv, stdin, exit_code, applied, fault=None):
        if self.journal is None:
            return
        with self.journal_lock:
            self.seq += 1
            line = {"seq": self.seq, "at": fmt_ms(self.clock.now()), "user": user, "argv": argv,
                    "exit_code": exit_code, "applied": applied}
            if stdin:
                line["stdin"] = stdin
            if fault:
                line["fault"] = fault
            self.journal.write(json.dumps(line, sort_keys=True) + "\n")
            self.journal.flush()

    def pick_fault(self, method, argv, is_write):
        """The faults that fire for this request: the `slow` delay, whether a `hold` fired, at most one other."""
        slow, hold, chosen = 0.0, False, None
        with self.control_lock:
            for f in self.faults:
                if not f.matches(method, argv, is_write):
                    continue
                f.seen += 1
                if f.seen <= f.after:
                    continue
                if f.times is not None and f.fired >= f.times:
                    continue
                if f.rate < 1 and self.random.random() >= f.rate:
                    continue
                if f.kind == "slow":
                    f.fired += 1
                    slow += f.delay
                    continue
                if f.kind == "hold":
                    f.fired += 1
                    hold = True
                    continue
                if chosen is None:
                    f.fired += 1
                    chosen = f
        if slow:
            self.count("faults", "slow")
        if hold:
            self.count("faults", "hold")
        if chosen:
            self.count("faults", chosen.kind)
        return slow, hold, chosen

    def hold_until_released(self):
        """Waits, counted in `held`, until a `release` control lets this request go on (True) or a
        `drop` control ends it unrun (False)."""
        with self.released:
            self.count("held")
            self.released.wait_for(lambda: self.permits > 0 or self.drops > 0)
            go_on = self.permits > 0
            if go_on:
                self.permits -= 1
            else:
                self.drops -= 1
            self.count("held", n=-1)
            return go_on

    # auth

    def authenticate(self, header):
        if header is None or not header.startswith("Bearer "):
            return None, Reply(401, envelope(error="missing bearer token; mint one over SSH: token create --name <n>"),
                               {"WWW-Authenticate": 'Bearer realm="gitbay api"'})
        tok = header[len("Bearer "):].strip()
        who = self.tokens.get(tok)
        if who is None or self.revoked or self.expired(tok, self.clock.now()):
            # guess: an expired token is refused like an unknown one, with the same 401.
            return None, Reply(401, envelope(error="invalid or expired token"))
        return who + (tok,), None

    def expired(self, tok, now):
        exp = self.expires.get(tok)
        return exp is not None and exp <= now

    def credential_lapsed(self, tok, now):
        """control/mergequeue.go queueCredentialLapsed for a token: why the token a merge was
        queued with can no longer carry it, or "" when it still can (or the merge rests on the
        account alone: queued before the simulator started, from the file's `queued`). The
        `revoke` control stands for revoking the token (store APITokenByID: not found), an expiry
        passed for expiring, and the `read_only` control or a read scope for narrowing the scope."""
        if tok is None:
            return ""
        if self.revoked or tok not in self.tokens:
            return "the token it was queued with was revoked"
        if self.expired(tok, now):
            return "the token it was queued with has expired"
        if self.read_only or self.tokens[tok][1] != "full":
            return "the token it was queued with no longer has full scope"
        return ""

    # dispatch

    def dispatch(self, user, scope, argv, stdin, via_get, token=None):
        """Runs argv as gitbay's dispatcher would; returns (exit_code, data or error text, applied)."""
        path = lookup(argv)
        if path is None:
            return EXIT_USAGE, "unknown command %s; help lists them" % argv[0], False
        read_only = is_read_only(path)
        if not read_only and not via_get and (scope == "read" or self.read_only):
            return EXIT_DENIED, ("this token is read-only; %s changes state. Mint a full-scope token: "
                                 "token create --name <n> --scope full" % " ".join(path)), False
        if not read_only:
            wait = self.limiter.account_allow(user)
            if wait:
                self.count("too_many_writes")
                return EXIT_DENIED, too_many_writes(self.limiter.write_rate, wait), False
        spec = SPECS.get(path)
        ctx = Ctx(self, user, stdin if spec is not None and spec.reads_stdin else "", token)
        with self.forge.lock:
            try:
                data = run_command(ctx, path, argv[len(path):])
                return EXIT_OK, data, ctx.applied
            except CmdError as e:
                return e.code, e.msg, ctx.applied

    def handle(self, method, path, query, headers, body):
        """One HTTP request in, one Reply out (the transport layer lives in Handler)."""
        self.count("requests")
        self.count("methods", method)
        if path == "/_sim/control" and method == "POST":
            return self.control(headers, body)
        if path in ("/_sim/state", "/_sim/stats") and method == "GET":
            return self.introspect(path, headers)
        self.count("in_flight")
        try:
            return self.handle_api(method, path, query, headers, body)
        finally:
            self.count("in_flight", n=-1)

    def handle_api(self, method, path, query, headers, body):
        """A request to the API; `in_flight` counts it until it returns, its write done or refused."""
        if not ((path == "/api/v1/cmd" and method == "POST") or (path == "/api/v1/read" and method == "GET")):
            return Reply(404, raw=b"404 page not found\n", headers={"Content-Type": "text/html; charset=utf-8"})
        who, refusal = self.authenticate(headers.get("Authorization"))
        if refusal:
            self.count("unauthorized")
            return refusal
        user, scope, tok = who
        stdin = ""
        if method == "POST":
            try:
                req = json.loads(body.decode("utf-8")) if len(body) <= MAX_API_BODY else None
                if not isinstance(req, dict):
                    raise ValueError
                argv = req.get("argv") or []
                stdin = req.get("stdin") or ""
                if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv) or \
                        not isinstance(stdin, str):
                    raise ValueError
            except (ValueError, UnicodeDecodeError):
                return Reply(400, envelope(error='body must be JSON: {"argv": [...], "stdin": "..."}'))
            while argv and (argv[0].startswith("--term=") or argv[0].startswith("--path=")):
                argv = argv[1:]
            if not argv:
                return Reply(400, envelope(error="argv is required"))
            if argv[0] in ("git-upload-pack", "git-receive-pack", "git-upload-archive"):
                return Reply(400, envelope(error="git transport does not run over the JSON API; use git with an "
                                                 "SSH remote"))
            cmd = lookup(argv)
            is_write = cmd is None or not is_read_only(cmd)
        else:
            argv = query.get("argv", [])
            if not argv:
                return Reply(404, envelope(error="unknown command "))
            cmd = lookup(argv)
            if cmd is None:
                return Reply(404, envelope(error="unknown command %s" % argv[0]))
            if not is_read_only(cmd):
                return Reply(400, envelope(error="%s changes state; POST it to /api/v1/cmd" % " ".join(cmd)))
            is_write = False
        label = " ".join(cmd) if cmd else "(unknown)"
        self.count("commands", label)

        slow, hold, fault = self.pick_fault(method, argv, is_write)
        if slow:
            # The slow answer is the fault being simulated (a server that answers late), not a wait.
            time.sleep(slow)
        if hold and not self.hold_until_released():
            # Dropped: the connection goes without an answer and the command never runs, as when
            # a proxy in front of gitbay loses a request.
            if is_write:
                self.journal_write(user, argv, stdin, None, False, "hold-dropped")
            reply = Reply(0)
            reply.after = "reset"
            return reply
        if fault is not None:
            reply = self.fault_reply(fault, user, argv, stdin, is_write)
            if reply is not None:
                return reply

        wait = self.limiter.api_allow(user, is_write)
        if wait:
            self.count("rate_limited")
            n = retry_seconds(wait)
            return Reply(429, envelope(error="rate limited; retry in %ds" % n), {"Retry-After": str(n)})
        self.count("writes" if is_write else "reads")

        code, payload, applied = self.dispatch(user, scope, argv, stdin, method == "GET", tok)
        if is_write:
            self.journal_write(user, argv, stdin, code, applied, fault.kind if fault else None)
        if isinstance(payload, RawOutput):
            obj = payload.envelope(code)
        else:
            obj = envelope(data=payload, exit_code=0) if code == EXIT_OK else envelope(error=payload, exit_code=code)
        reply = Reply(status_for_exit(code), obj)
        if method == "GET":
            etag = '"%s"' % hashlib.sha256(("u%s\0" % user).encode() + reply.body).hexdigest()[:32]
            reply.headers["ETag"] = etag
            reply.headers["Cache-Control"] = "private, no-cache"
            if etag_matches(headers.get("If-None-Match"), etag):
                self.count("not_modified")
                reply = Reply(304, headers={"ETag": etag, "Cache-Control": "private, no-cache"})
        if fault is not None:
            reply.after = {"reset-after": "reset", "malformed": "malformed", "huge": "huge",
                           "truncated": "truncated-honest" if fault.honest else "truncated"}[fault.kind]
            reply.padding = fault.bytes
        return reply

    def fault_reply(self, fault, user, argv, stdin, is_write):
        """The reply of a fault that stops the request before it runs, or None for after-the-fact ones."""
        k = fault.kind
        if k in ("reset-after", "malformed", "truncated", "huge"):
            return None
        reply = None
        if k == "500":
            reply = Reply(500, envelope(error="internal error"))
        elif k == "503":
            reply = Reply(503, envelope(error="the server is busy; try again later", exit_code=EXIT_FAILURE),
                          {"Retry-After": str(fault.retry_after)})
        elif k == "429":
            self.count("rate_limited")
            reply = Reply(429, envelope(error="rate limited; retry in %ds" % fault.retry_after),
                          {"Retry-After": str(fault.retry_after)})
        elif k == "401":
            reply = Reply(401, envelope(error="invalid or expired token"))
        elif k == "too-many-writes":
            self.count("too_many_writes")
            reply = Reply(403, envelope(error="too many writes: %d a minute per account; try again in %ds"
                                        % (self.limiter.write_rate, fault.retry_after), exit_code=EXIT_DENIED))
        elif k == "reset":
            reply = Reply(0)
            reply.after = "reset"
        if is_write:
            body = json.loads(reply.body) if reply.body else {}
            self.journal_write(user, argv, stdin, body.get("exit_code"), False, k)
        return reply

    # test control

    def main_token_only(self, headers):
        h = headers.get("Authorization") or ""
        if not h.startswith("Bearer ") or h[len("Bearer "):].strip() != self.main_token:
            return Reply(401, envelope(error="the simulator's control endpoints take the main token"))
        return None

    def control(self, headers, body):
        refusal = self.main_token_only(headers)
        if refusal:
            return refusal
        try:
            req = json.loads(body.decode("utf-8"))
            if not isinstance(req, dict):
                raise ValueError("body must be a JSON object")
            with self.control_lock:
                if "faults" in req:
                    self.faults = [Fault(s) for s in req["faults"]]
                if "revoke" in req:
                    self.revoked = bool(req["revoke"])
                if "read_only" in req:
                    self.read_only = bool(req["read_only"])
            for key in ("release", "drop"):
                if key in req:
                    if int(req[key]) < 0:
                        raise ValueError("%s must not be negative" % key)
                    with self.released:
                        if key == "release":
                            self.permits += int(req[key])
                        else:
                            self.drops += int(req[key])
                        self.released.notify_all()
            if "deliveries_paused" in req:
                if not isinstance(req["deliveries_paused"], bool):
                    raise ValueError("deliveries_paused must be true or false")
                self.deliverer.paused = req["deliveries_paused"]
            if "token_expires" in req:
                v = req["token_expires"]
                if v is not None and not isinstance(v, str):
                    raise ValueError("token_expires must be a timestamp or null")
                self.expires[self.main_token] = parse_ts(v) if v is not None else None
            if "advance_seconds" in req:
                self.clock.advance(float(req["advance_seconds"]))
            if "push" in req:
                with self.forge.lock:
                    push(self.forge, req["push"], self.clock.now())
            if "finish_build" in req:
                with self.forge.lock:
                    finish_build(self.forge, req["finish_build"], self.clock.now())
            if "state" in req:
                with self.forge.lock:
                    self.forge.load(req["state"])
        except (ValueError, TypeError, StateError) as e:
            return Reply(400, {"error": str(e)})
        except CmdError as e:
            return Reply(400, {"error": e.msg})
        return Reply(200, {"ok": True, "now": fmt_ms(self.clock.now()),
                           "faults": [f.spec for f in self.faults], "revoked": self.revoked,
                           "read_only": self.read_only, "deliveries_paused": self.deliverer.paused,
                           "token_expires": fmt_ms(self.expires[self.main_token])
                           if self.expires.get(self.main_token) else None})

    def introspect(self, path, headers):
        refusal = self.main_token_only(headers)
        if refusal:
            return refusal
        if path == "/_sim/state":
            with self.forge.lock:
                return Reply(200, self.forge.dump(self.clock.now()))
        with self.stats_lock:
            return Reply(200, json.loads(json.dumps(self.stats)))


CLOSE_RE = re.compile(r"(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)[ :]+"
                      r"(?:([a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._-]*))?#(\d+)\b")
REF_RE = re.compile(r"(^|[\s(\[{:])#(\d+)\b")


def closing_refs(text):
    """control/commitrefs.go closingRefs: (path or "", number) pairs a text closes."""
    out = []
    for g in CLOSE_RE.finditer(text or ""):
        ref = ((g.group(1) or "").lower(), int(g.group(2)))
        if ref not in out:
            out.append(ref)
    return out


def close_target(forge, r, path):
    """commitrefs.go closeTarget: the same repository, or the named one (guess: the actor may
    write there; the simulator has no permissions)."""
    if not path:
        return r
    return next((x for x in forge.repos if x["path"].lower() == path), None)


def add_issue_system_comment(forge, it, body, now):
    """store AddIssueSystemComment: a `system` comment (the next issue comment id); updated_at stays."""
    forge.new_comment("issue", it, "system", body, fmt_ms(now), comment_kind="system")


def process_commit_messages(forge, r, actor, commits, now):
    """control/commitrefs.go ProcessCommitMessages, for commits landing on the default branch (a
    push, or a merge into it): `closes #N` (fix, resolve, any tense; owner/name#N for another
    repository) closes an open issue with a system comment and records `issue.closed`
    {number, sha}, actor the pusher or merger; a bare #N, or a close of an issue already closed,
    leaves a `referenced in commit` system comment and no event. Each (issue, commit) acts once.
    `commits` is [(sha, message, author)]."""
    for sha, message, author in commits:
        closes = closing_refs(message)
        local = {n for path, n in closes if not path}
        refs = []
        for g in REF_RE.finditer(message or ""):
            n = int(g.group(2))
            if n not in local and n not in refs:
                refs.append(n)
        subject = (message or "").split("\n", 1)[0]
        for path, n in closes:
            target = close_target(forge, r, path)
            if target is not None:
                act_on_issue(forge, r, target, actor, sha, n, True, subject, author, now)
        for n in refs:
            act_on_issue(forge, r, r, actor, sha, n, False, subject, author, now)


def act_on_issue(forge, source, target, actor, sha, number, close, subject, author, now):
    it = next((x for x in target["issues"] if x["number"] == number), None)
    key = (target["path"], number, sha)
    if it is None or key in forge.commit_refs:
        return
    forge.commit_refs.add(key)
    link = "[%s](/%s/commit/%s)" % (sha[:10], source["path"], sha)
    if close and it["state"] == "open":
        it["state"] = "closed"
        it["updated_at"] = fmt_ms(now)  # store SetIssueState
        add_issue_system_comment(forge, it, "closed by commit %s by %s: %s" % (link, author, subject), now)
        forge.record_event(target["path"], actor, "issue.closed", {"number": number, "sha": sha}, now)
        return
    add_issue_system_comment(forge, it, "referenced in commit %s by %s: %s" % (link, author, subject), now)


def process_mr_description(forge, r, m, actor, now):
    """commitrefs.go ProcessMRDescription, after a merge into the default branch: a closing
    reference in the MR's title or body closes an issue still open, with a system comment and
    `issue.closed` {number, mr}, actor the merger."""
    for path, n in closing_refs((m.get("title") or "") + "\n" + (m.get("body") or "")):
        target = close_target(forge, r, path)
        if target is None:
            continue
        it = next((x for x in target["issues"] if x["number"] == n), None)
        key = (target["path"], n, "mr-%d" % m["number"])
        if it is None or it["state"] != "open" or key in forge.commit_refs:
            continue
        forge.commit_refs.add(key)
        it["state"] = "closed"
        it["updated_at"] = fmt_ms(now)
        add_issue_system_comment(forge, it, "closed by merge request [!%d](/%s/mrs/%d): %s"
                                 % (m["number"], r["path"], m["number"], m["title"]), now)
        forge.record_event(target["path"], actor, "issue.closed", {"number": n, "mr": m["number"]}, now)


def push(forge, req, now):
    """What a `git push` does, which the control API cannot: control/refsupdated.go RefsUpdated for
    one ref update. It records a `push` row (never in the feed), queues the branch's builds with
    pending ci/<job> statuses (queueJobs; no events), and for each open or source_gone MR from the
    branch moves its head (store UpdateMRHead: updated_at moves, reviews of the old head go stale),
    brings a source_gone one back to open, and retries a queued merge (QueuedMergePushed). It
    records no merge-request event. `delete: true` deletes the branch: its open MRs become
    source_gone (store SetMRState: updated_at moves) and a queued merge is dequeued.
    Each moved head is recorded as a revision (store UpdateMRHead's mr_heads row, `mr revisions`),
    whoever pushed, unless it is the newest revision's sha already; the pusher is not part of it.
    A queued merge goes through QueuedMergePushed: a pusher who cannot write to the repository
    (can_write) dequeues it with `<pusher> pushed and cannot merge into <repo>`, otherwise it is
    tried at the new head.
    Keys: repo, branch, sha (40 hex; not with delete), actor (default "alice"), forced,
    same_change (the new head proposes the old diff, so fresh reviews follow it: #198),
    subject (the commit's first line, for the builds), base_sha (the revision's merge base;
    default the target branch's tip, "" for none), files and parent (the files the pushed
    commit changes, record_pushed_commit; the `push` event still names no file, as gitbay's
    does not)."""
    _require(isinstance(req, dict), "push must be an object")
    r = forge.repo(req.get("repo"))
    branch, sha = req.get("branch"), req.get("sha")
    _require(isinstance(branch, str) and branch, "push needs a branch")
    deleted = bool(req.get("delete"))
    if deleted:
        _require(branch in r["branches"], "push: %s has no branch %s to delete" % (r["path"], branch))
        sha = ZERO_SHA
    else:
        _require(isinstance(sha, str) and re.fullmatch("[0-9a-f]{40}", sha or ""), "push needs a 40-hex sha")
    actor = req.get("actor") or "alice"
    _require(isinstance(req.get("base_sha", ""), str), "push: base_sha must be a string")
    old = r["branches"].get(branch, ZERO_SHA)
    if old == sha:
        return  # git runs no hook for a ref that did not move
    if not deleted:
        record_pushed_commit(r, req, branch, old, sha)
    if deleted:
        del r["branches"][branch]
    else:
        r["branches"][branch] = sha
    push_event(forge, r, actor, branch, old, sha, now, forced=bool(req.get("forced")), deleted=deleted)
    if not deleted and branch == r["default_branch"]:
        # guess: the simulator has no commits; `messages` lists the pushed commits' messages,
        # oldest first, as [{"sha"?, "message", "author"?}] (sha defaults to the pushed one).
        commits = [(c.get("sha") or sha, c.get("message") or "", c.get("author") or actor)
                   for c in req.get("messages") or [] if isinstance(c, dict)]
        process_commit_messages(forge, r, actor, commits, now)
    if not deleted:
        queue_jobs(r, branch, sha, actor, now, subject=req.get("subject"))
    for m in sorted(r["merge_requests"], key=lambda x: x["number"]):
        if m["state"] not in ("open", "source_gone") or m["source"] != branch:
            continue
        if deleted:
            if m["state"] == "open":
                m["state"] = "source_gone"
                m["updated_at"] = fmt_ms(now)
            if m.get("queued"):
                attempt_queued_merge(forge, r, m, now)  # dequeues: the source is gone
            continue
        m["head_sha"] = sha
        m["updated_at"] = fmt_ms(now)
        m.pop("checks_combined", None)
        # refsupdated.go works out the merge base of the target branch and the new head; guess:
        # with no commit graph, the target's tip stands for it unless the push names one.
        base = req["base_sha"] if "base_sha" in req else r["branches"].get(m["target_ref"], "")
        record_revision(m, sha, base or "", now)
        if not req.get("same_change"):
            for rv in m.get("reviews") or []:
                rv["stale"] = True
        # guess: the pushed commit goes on top of the MR's commit list.
        m.setdefault("commits", []).append({"sha": sha, "subject": req.get("subject") or "push"})
        if m["state"] == "source_gone":
            m["state"] = "open"  # the branch came back (store SetMRState clears the stamps)
            for k in ("merged_at", "merged_by", "closed_at", "closed_by"):
                m.pop(k, None)
        if m.get("queued"):
            # mergequeue.go QueuedMergePushed: the queuer's authority must not merge commits
            # someone who cannot merge chose.
            if not can_write(forge, actor, r):
                dequeue(forge, m, "%s pushed and cannot merge into %s" % (actor, r["path"]), now)
            else:
                attempt_queued_merge(forge, r, m, now)


def finish_build(forge, req, now):
    """A runner's report (control/build.go runRunnerDone), or its claim (`running`). A result sets
    the build's status and finished_at, sets ci/<job> on the commit to success or failure (no
    event for the status), records `build.success` or `build.failure` {number, job, sha} with the
    runner's account as actor, and tries the queued merges at the sha. A late report on a build
    cancelled meanwhile changes nothing. Keys: repo, number, status (running|success|failure),
    actor (the runner account; guess: "runner"), failed_step, failed_reason."""
    _require(isinstance(req, dict), "finish_build must be an object")
    r = forge.repo(req.get("repo"))
    status = req.get("status")
    _require(status in ("running", "success", "failure"), "finish_build status is running, success or failure")
    b = forge.build(r, int(req.get("number", 0)))
    if b["status"] == "cancelled" and status != "running":
        return
    _require(b["status"] in ("pending", "running"), "build %s is %s already" % (b["number"], b["status"]))
    b["status"] = status
    if status == "running":
        return
    b["finished_at"] = fmt_s(now)
    if status == "failure":
        if req.get("failed_step"):
            b["failed_step"] = int(req["failed_step"])
        if req.get("failed_reason"):
            b["failed_reason"] = str(req["failed_reason"])
    actor = req.get("actor") or "runner"
    set_status(r, b["sha"], "ci/" + b["job"], status, now, description="build " + status, creator=actor)
    forge.record_event(r["path"], actor, "build." + status, {"number": b["number"], "job": b["job"], "sha": b["sha"]},
                       now)
    attempt_queued_merges_at(forge, r, b["sha"], now)


def etag_matches(header, etag):
    if not header:
        return False
    for part in header.split(","):
        p = part.strip()
        if p == "*":
            return True
        if p.startswith("W/"):
            p = p[2:]
        if p == etag:
            return True
    return False


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes; without TCP_NODELAY a kept-alive connection waits
    # for the client's delayed ACK (40 ms) on every reply. Go's server, like gitbay, sets it too.
    disable_nagle_algorithm = True
    server_version = "gitbay-sim"
    sys_version = ""

    def log_message(self, fmt, *args):
        pass

    def do_GET(self):
        self.serve("GET")

    def do_POST(self):
        self.serve("POST")

    def serve(self, method):
        sim = self.server.sim
        parts = urlsplit(self.path)
        query = parse_qs(parts.query, keep_blank_values=True)
        body = b""
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            body = self.rfile.read(length)
        headers = {"Authorization": self.headers.get("Authorization"),
                   "If-None-Match": self.headers.get("If-None-Match")}
        try:
            reply = sim.handle(method, parts.path, query, headers, body)
        except Exception as e:  # a simulator bug must still answer, loudly
            reply = Reply(500, envelope(error="simulator crashed: %r" % e, exit_code=EXIT_PROTOCOL))
        sim.count("statuses", str(reply.status or "reset"))
        if reply.after == "reset":
            self.reset()
            return
        payload = reply.body
        if reply.after == "malformed":
            payload = b"<html><body>502 Bad Gateway</body></html>\n"
        elif reply.after == "huge":
            self.send_huge(reply)
            return
        elif reply.after in ("truncated", "truncated-honest"):
            full = payload
            payload = full[:max(1, len(full) // 2)]
            if reply.after == "truncated":
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(full)))
                self.end_headers()
                self.wfile.write(payload)
                self.wfile.flush()
                self.reset()
                return
        self.send_response(reply.status)
        for k, v in reply.headers.items():
            self.send_header(k, v)
        if reply.status != 304 and payload:
            if "Content-Type" not in reply.headers:
                self.send_header("Content-Type", "application/json")
            accept = self.headers.get("Accept-Encoding") or ""
            if any(t.split(";")[0].strip().lower() == "gzip" for t in accept.split(",")):
                # gitbay's `compressed` (internal/httpd/compress.go) writes through gzip.NewWriter,
                # Go's default level 6; Python's own default, 9, only costs the tests time.
                payload = gzip.compress(payload, compresslevel=6)
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Vary", "Accept-Encoding")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Length", str(len(payload) if reply.status != 304 else 0))
        self.end_headers()
        if reply.status != 304:
            self.wfile.write(payload)

    def send_huge(self, reply):
        """Sends the reply's JSON followed by `padding` bytes of whitespace: still valid JSON, never gzipped."""
        self.send_response(reply.status)
        for k, v in reply.headers.items():
            self.send_header(k, v)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply.body) + reply.padding))
        self.end_headers()
        try:
            self.wfile.write(reply.body)
            chunk = b" " * (1 << 20)
            left = reply.padding
            while left > 0:
                self.wfile.write(chunk[:min(left, len(chunk))])
                left -= len(chunk)
        except OSError:
            self.close_connection = True

    def reset(self):
        """Drops the connection with a TCP reset and no (complete) response."""
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
        except OSError:
            pass
        self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # gitbay serves with Go's net/http, whose listener takes the kernel's somaxconn as its backlog
    # (Go's net package, maxListenerBacklog). socketserver's default of 5 made the kernel drop the
    # connections of a client sending 45 requests at once, which then came 1, 3, 7... 63 s late
    # (SYN retries): a paced client drew 429s and tests waited up to a minute.
    request_queue_size = socket.SOMAXCONN


def parse_args(argv):
    ap = argparse.ArgumentParser(description="gitbay simulator: the JSON API over loopback HTTP")
    ap.add_argument("--state", required=True, help="forge-state file (docs/forge-state.md)")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--token", default=DEFAULT_TOKEN, help="full-scope token of the state's `me`")
    ap.add_argument("--user-token", action="append", default=[], metavar="NAME=TOKEN")
    ap.add_argument("--read-only-token", default=None, help="read-scope token of `me`")
    ap.add_argument("--token-expires", default=None, metavar="TIMESTAMP",
                    help="the main token expires then (a gitbay timestamp on the simulator's clock): it is "
                         "refused from then on, and before then it cannot queue a merge (mr merge --when-ready)")
    ap.add_argument("--journal", default=None, help="append one JSON line per write processed")
    ap.add_argument("--api-rate", type=float, default=120, help="requests a minute per account (0=120, <0 off)")
    ap.add_argument("--write-rate", type=float, default=60, help="account writes a minute (0=60, <0 off)")
    ap.add_argument("--time-scale", type=float, default=1.0, help="clock and bucket refill speed-up")
    ap.add_argument("--clock", choices=["running", "frozen"], default="running")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fault", action="append", default=[], metavar="SPEC")
    ap.add_argument("--webhook-retry-base", type=float, default=WEBHOOK_RETRY_BASE, metavar="SECONDS",
                    help="first retry delay of a failed webhook delivery, doubling per attempt (gitbay: 30 s); "
                         "divided by --time-scale")
    ap.add_argument("--webhook-allow-local", action="store_true",
                    help="let webhooks target loopback and private addresses (gitbay's webhooks.allow_local)")
    ap.add_argument("--max-blob-bytes", type=int, default=MAX_BLOB_BYTES, metavar="BYTES",
                    help="the instance's [limits] max_blob_bytes: repo cat answers a larger file cut there, "
                         "truncated (gitbay: 100 MiB)")
    ap.add_argument("--exit-with-stdin", action="store_true",
                    help="stop when standard input reaches end of file: a parent that dies, however it "
                         "dies, leaves no simulator behind")
    args = ap.parse_args(argv)
    if args.time_scale <= 0:
        ap.error("--time-scale must be positive")
    if args.max_blob_bytes < 0:
        ap.error("--max-blob-bytes must not be negative")
    if args.webhook_retry_base < 0:
        ap.error("--webhook-retry-base must not be negative")
    if args.token_expires is not None:
        try:
            parse_ts(args.token_expires)
        except ValueError:
            ap.error("--token-expires takes a timestamp such as 2026-12-01T00:00:00Z")
    for spec in args.fault:
        try:
            Fault(spec)
        except ValueError as e:
            ap.error("--fault %s: %s" % (spec, e))
    return args


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        with open(args.state, encoding="utf-8") as f:
            doc = json.load(f)
        sim = Simulator(args, doc)
    except (OSError, ValueError, StateError) as e:
        print("gitbay_sim: %s: %s" % (args.state, e), file=sys.stderr)
        return 2
    server = Server((args.host, args.port), Handler)
    server.sim = sim
    host, port = server.server_address[:2]
    print("http://%s:%d" % (host, port), flush=True)

    def stop(signum, frame):
        threading.Thread(target=server.shutdown, daemon=True).start()

    # A parent may start us with these signals blocked or ignored (test runners do); take them back.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    if args.exit_with_stdin:
        def stop_at_end_of_input():
            sys.stdin.buffer.read()
            stop(None, None)
        threading.Thread(target=stop_at_end_of_input, daemon=True).start()
    sim.deliverer.start()
    try:
        server.serve_forever(poll_interval=0.05)
    finally:
        sim.deliverer.stop()
        server.server_close()
        if sim.journal:
            sim.journal.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
