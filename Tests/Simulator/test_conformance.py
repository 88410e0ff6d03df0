"""Conformance tests: each pins one gitbay behaviour the simulator follows, named after the gitbay
file and function it comes from (docs/gitbay-conformance.md lists them). A test here failing means
the simulator departs from gitbay again.

Like test_gitbay_sim.py, each test starts gitbay_sim.py as a subprocess and talks HTTP to it.
"""

import json
import os
import select
import socket
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_gitbay_sim import ALICE, READ_ONLY, Sim, TOKEN  # noqa: E402

BOT = "triage-bot"
SHA_A, SHA_B, SHA_C, SHA_D, SHA_E = ("a" * 40, "b" * 40, "c" * 40, "d" * 40, "e" * 40)


def forge(repos, **top):
    doc = {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": BOT,
           "users": [BOT, "alice", "cmc"], "repos": repos}
    doc.update(top)
    return doc


def app_repo(**extra):
    """krz/app: main, a parent MR !1 (feat-1) and a draft child !2 stacked on it (feat-2), a plain
    branch feat-3, one passed build of `test` on main."""
    r = {"path": "krz/app", "default_branch": "main",
         "branches": {"main": SHA_A, "feat-1": SHA_B, "feat-2": SHA_C, "feat-3": SHA_D},
         "labels": [{"name": "bug"}],
         "milestones": [{"title": "v1"}],
         "issues": [{"number": 1, "title": "a bug", "state": "open", "author": "alice",
                     "created_at": "2026-11-01T00:00:00.000Z"}],
         "merge_requests": [
             {"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
              "target_ref": "main", "head_sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z"},
             {"number": 2, "title": "child", "state": "open", "draft": True, "author": "alice",
              "source": "feat-2", "target_ref": "feat-1", "head_sha": SHA_C,
              "created_at": "2026-11-02T00:00:00.000Z"}],
         "builds": [{"number": 1, "job": "test", "status": "success", "sha": SHA_A, "ref": "main",
                     "created_at": "2026-11-01T00:00:00Z", "finished_at": "2026-11-01T00:02:00Z"}]}
    r.update(extra)
    return r


UNLIMITED = ("--clock", "frozen", "--api-rate", "-1", "--write-rate", "-1")


class StateSim(unittest.TestCase):
    """A fresh simulator on a state built by the test (frozen clock)."""

    def start(self, doc, *extra):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        path = os.path.join(self.tmp.name, "forge.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(doc, f)
        self.sim = Sim(path, *UNLIMITED, *extra)
        self.addCleanup(self.sim.stop)
        return self.sim

    def ok(self, *argv, token=TOKEN, stdin=None):
        _, _, env = self.sim.post(*argv, token=token, stdin=stdin)
        self.assertEqual(env.get("exit_code"), 0, (argv, env))
        return env["data"]

    def refused(self, *argv, token=TOKEN):
        status, _, env = self.sim.post(*argv, token=token)
        return status, env.get("exit_code"), env.get("error")

    def feed(self, token=TOKEN):
        _, _, env = self.sim.get("feed", token=token)
        self.assertEqual(env["exit_code"], 0, env)
        return env["data"]

    def kinds(self, token=TOKEN):
        return [e["kind"] for e in self.feed(token)]

    def mr(self, repo, n):
        return self.sim.data("mr", "show", repo, str(n))

    def query_updated_at(self, q, number):
        rows = self.sim.data("issue" if "is:issue" in q else "mr", "list", "--q", q, "--limit", "200")["items"]
        return next(r["updated_at"] for r in rows if r["number"] == number)


class FeedTests(StateSim):
    """internal/store/dashboard.go RecentEvents and reachableCond; control/dashboard.go runFeed."""

    def test_push_rows_are_never_in_the_feed(self):
        self.start(forge([app_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E, "actor": "alice"})
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "actor": "alice"})
        self.assertEqual(self.feed(), [])
        # The merge's own push of the target branch is left out too.
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual(self.kinds(), ["mr.merged"])

    def test_only_repositories_the_account_reaches(self):
        repos = [app_repo(),  # no access list: granted to `me` only
                 dict(app_repo(), path="alice/own", access=[]),  # owned by alice, no grants
                 dict(app_repo(), path="acme/lib", access=[]),  # org repository
                 dict(app_repo(), path="krz/granted", access=["alice", BOT]),
                 dict(app_repo(), path="krz/other", access=["cmc"])]
        self.start(forge(repos, orgs={"acme": {"members": ["alice"]}}))
        for repo in ("krz/app", "alice/own", "acme/lib", "krz/granted", "krz/other"):
            self.ok("issue", "comment", repo, "1", "--message", "hi", token=ALICE)
        self.assertEqual([e["repo"] for e in self.feed()], ["krz/granted", "krz/app"])
        self.assertEqual([e["repo"] for e in self.feed(token=ALICE)], ["krz/granted", "acme/lib", "alice/own"])

    def test_repo_list_is_the_reachable_repositories_by_owner_then_name(self):
        repos = [dict(app_repo(), path="krz/b"), dict(app_repo(), path="krz-x/a"), dict(app_repo(), path="krz/a"),
                 dict(app_repo(), path="zed/hidden", access=["alice"])]
        self.start(forge(repos))
        self.assertEqual([r["path"] for r in self.sim.data("repo", "list")], ["krz/a", "krz/b", "krz-x/a"])
        page = self.sim.data("repo", "list", "--limit", "1")
        rest = self.sim.data("repo", "list", "--cursor", page["next"])
        self.assertEqual([r["path"] for r in rest["items"]], ["krz/b", "krz-x/a"])
        self.assertNotIn("next", rest)

    def test_a_bare_feed_stops_at_fifty_and_a_cursor_alone_pages_at_fifty(self):
        self.start(forge([app_repo()]))
        for n in range(55):
            self.ok("issue", "comment", "krz/app", "1", "--message", "c%d" % n)
        bare = self.feed()
        self.assertIsInstance(bare, list)
        self.assertEqual(len(bare), 50)
        first = self.sim.data("feed", "--limit", "1")
        rest = self.sim.data("feed", "--cursor", first["next"])
        self.assertEqual(len(rest["items"]), 50)
        self.assertIn("next", rest)

    def test_an_unreachable_feed_is_an_empty_array(self):
        self.start(forge([app_repo()]))
        self.ok("issue", "comment", "krz/app", "1", "--message", "hi")
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=feed", token=ALICE)
        self.assertEqual(status, 200)
        self.assertIn(b'"data":[]', body)


class EventDataTests(StateSim):
    """What each command records (control/issue.go, mr.go, milestone.go, thread.go, build.go,
    status.go, mergequeue.go): kind, data and actor."""

    def events(self):
        return [(e["kind"], e.get("actor"), e["data"]) for e in reversed(self.feed())]

    def test_every_event_carries_a_data_object(self):
        self.start(forge([app_repo()]))
        self.ok("issue", "comment", "krz/app", "1", "--message", "hi")
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=feed")
        event = json.loads(body)["data"][0]
        self.assertEqual(sorted(event), ["actor", "created_at", "data", "id", "kind", "repo"])
        self.assertEqual(event["data"], {"number": 1})

    def test_issues_are_numbered_apart_from_merge_requests(self):
        self.start(forge([app_repo()]))  # issue 1, merge requests 1 and 2
        self.assertEqual(self.ok("issue", "create", "krz/app", "--title", "new"), {"number": 2})

    def test_issue_events(self):
        self.start(forge([app_repo()]))
        self.ok("issue", "create", "krz/app", "--title", "new")
        self.ok("issue", "edit", "krz/app", "1", "--title", "renamed")
        self.ok("issue", "comment", "krz/app", "1", "--message", "hi", token=ALICE)
        self.ok("issue", "label", "krz/app", "1", "--add", "bug", "--add", "ops")
        self.ok("issue", "label", "krz/app", "1", "--remove", "bug", "--remove", "ops")
        self.ok("issue", "assign", "krz/app", "1", "--add", "cmc", "--add", "alice")
        self.ok("issue", "milestone", "krz/app", "1", "v1")
        self.ok("issue", "milestone", "krz/app", "1", "none")
        self.ok("issue", "close", "krz/app", "1")
        self.ok("issue", "reopen", "krz/app", "1")
        self.assertEqual(self.events(), [
            ("issue.created", BOT, {"number": 2}),
            ("issue.edited", BOT, {"number": 1}),
            ("issue.commented", "alice", {"number": 1}),
            ("issue.labeled", BOT, {"number": 1, "labels": ["bug", "ops"]}),
            ("issue.labeled", BOT, {"number": 1, "labels": []}),
            ("issue.assigned", BOT, {"number": 1, "assignees": ["alice", "cmc"]}),
            ("issue.milestoned", BOT, {"number": 1, "milestone": "v1"}),
            ("issue.milestoned", BOT, {"number": 1, "milestone": ""}),
            ("issue.closed", BOT, {"number": 1}),
            ("issue.open", BOT, {"number": 1})])

    def test_merge_request_events(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "edit", "krz/app", "2", "--title", "child, renamed")
        self.ok("mr", "comment", "krz/app", "2", "--message", "hi")
        self.ok("mr", "label", "krz/app", "2", "--add", "bug")
        self.ok("mr", "ready", "krz/app", "2")
        self.ok("mr", "draft", "krz/app", "2")
        self.ok("mr", "close", "krz/app", "2", "--by", "1")
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual(self.events(), [
            ("mr.edited", BOT, {"number": 2}),
            ("mr.commented", BOT, {"number": 2}),
            ("mr.labeled", BOT, {"number": 2, "labels": ["bug"]}),
            ("mr.draft", BOT, {"number": 2, "draft": False}),
            ("mr.draft", BOT, {"number": 2, "draft": True}),
            ("mr.closed", BOT, {"number": 2, "by": 1}),
            ("mr.merged", BOT, {"number": 1, "sha": SHA_B})])

    def test_build_and_status_events(self):
        self.start(forge([app_repo(ci_jobs=["test"])]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E})
        build = self.sim.data("build", "list", "krz/app")[0]["number"]
        self.ok("build", "cancel", "krz/app", str(build))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})  # same sha: queues again
        again = self.sim.data("build", "list", "krz/app")[0]["number"]
        self.sim.control(finish_build={"repo": "krz/app", "number": again, "status": "failure"})
        self.ok("status", "set", "krz/app", SHA_E, "--context", "ext/lint", "--state", "success")
        self.assertEqual(self.events(), [
            ("build.cancelled", BOT, {"number": build, "job": "test", "sha": SHA_E}),
            ("build.failure", "runner", {"number": again, "job": "test", "sha": SHA_E}),
            ("status", BOT, {"sha": SHA_E, "context": "ext/lint", "state": "success"})])

    def test_a_stack_retarget_records_no_event_and_no_mr_event_for_the_child(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual([k for k, _, _ in self.events()], ["mr.merged"])
        child = self.mr("krz/app", 2)
        self.assertEqual(child["comments"][-1]["body"], "retargeted from feat-1 to main: !1 merged")


class NoOpWriteTests(StateSim):
    """control/issue.go runIssueLabel, runIssueAssign; control/mr.go runMRLabel: the event is
    recorded whether or not anything changed."""

    def test_labelling_with_a_label_already_there_records_an_event(self):
        self.start(forge([app_repo()]))
        self.ok("issue", "label", "krz/app", "1", "--add", "bug")
        data = self.ok("issue", "label", "krz/app", "1", "--add", "bug")
        self.assertEqual(data, {"number": 1, "labels": ["bug"]})
        self.ok("mr", "label", "krz/app", "1", "--add", "bug")
        self.ok("mr", "label", "krz/app", "1", "--add", "bug")
        self.assertEqual(self.kinds(), ["mr.labeled", "mr.labeled", "issue.labeled", "issue.labeled"])
        self.assertTrue(all(e["actor"] == BOT for e in self.feed()))

    def test_assigning_someone_already_assigned_records_an_event(self):
        self.start(forge([app_repo()]))
        self.ok("issue", "assign", "krz/app", "1", "--add", "cmc")
        self.ok("issue", "assign", "krz/app", "1", "--add", "cmc")
        self.assertEqual([e["data"] for e in self.feed()], [{"number": 1, "assignees": ["cmc"]}] * 2)
        self.assertTrue(all(line["applied"] for line in self.sim.journal_lines()))


class PartialWriteTests(StateSim):
    """Each --add/--remove is its own store call (store/labels.go setItemLabel): a failing one
    leaves the earlier ones applied, exits 3 and records no event."""

    def test_label_add_then_a_failing_remove_keeps_the_add(self):
        self.start(forge([app_repo()]))
        status, code, error = self.refused("issue", "label", "krz/app", "1", "--add", "x", "--remove", "y")
        self.assertEqual((status, code, error), (404, 3, 'label "y": not found'))
        self.assertEqual(self.sim.data("issue", "show", "krz/app", "1")["labels"], ["x"])
        self.assertIn("x", [lab["name"] for lab in self.sim.data("label", "list", "krz/app")])
        self.assertEqual(self.feed(), [])
        self.assertEqual(self.sim.journal_lines()[-1]["applied"], True)

    def test_mr_label_and_issue_assign_do_the_same(self):
        self.start(forge([app_repo()]))
        self.assertEqual(self.refused("mr", "label", "krz/app", "1", "--add", "x", "--remove", "y")[1], 3)
        self.assertEqual(self.mr("krz/app", 1)["labels"], ["x"])
        _, code, error = self.refused("issue", "assign", "krz/app", "1", "--add", "cmc", "--add", "nobody")
        self.assertEqual((code, error), (3, 'no such user "nobody"'))
        self.assertEqual(self.sim.data("issue", "show", "krz/app", "1")["assignees"], ["cmc"])
        _, code, error = self.refused("issue", "assign", "krz/app", "1", "--remove", "alice")
        self.assertEqual((code, error), (3, "alice is not assigned"))
        self.assertEqual(self.feed(), [])


    def test_a_label_name_over_50_characters_changes_nothing(self):
        # guess: gitbay's setItemLabel takes any name; the simulator keeps label set's limit.
        self.start(forge([app_repo()]))
        self.assertEqual(self.refused("issue", "label", "krz/app", "1", "--add", "ok", "--add", "x" * 51)[1], 2)
        self.assertNotIn("labels", self.sim.data("issue", "show", "krz/app", "1"))


class MergeQueueTests(StateSim):
    """control/mergequeue.go: queueMerge, attemptLocked, TryQueuedMerge(sAt), QueuedMergePushed,
    cancelQueuedMerge; the merge runs as the account that queued it."""

    def test_readying_a_queued_draft_merges_it_as_the_queuer(self):
        self.start(forge([app_repo()]))
        queued = self.ok("mr", "merge", "krz/app", "2", "--when-ready", token=ALICE)
        self.assertEqual(queued, {"number": 2, "queued": True, "strategy": "",
                                  "reason": "!2 is a draft; `gitbay mr ready krz/app 2` first"})
        shown = self.mr("krz/app", 2)
        self.assertEqual((shown["queued"]["by"], shown["comments"][-1]["body"]),
                         ("alice", "alice queued the merge for when the gates pass"))
        self.ok("mr", "ready", "krz/app", "2")  # the bot
        shown = self.mr("krz/app", 2)
        self.assertEqual((shown["state"], shown["merged_by"]), ("merged", "alice"))
        self.assertNotIn("queued", shown)
        self.assertEqual([(e["kind"], e["actor"]) for e in self.feed()],
                         [("mr.merged", "alice"), ("mr.draft", BOT)])

    def test_a_build_result_on_the_head_merges_a_queued_mr(self):
        self.start(forge([app_repo(ci_jobs=["test"], settings={"require_checks": True})]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "actor": "alice"})
        queued = self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        self.assertIn("requires green checks", queued["reason"])
        build = self.sim.data("build", "list", "krz/app", "--ref", "feat-1")[0]["number"]
        self.sim.control(finish_build={"repo": "krz/app", "number": build, "status": "success"})
        shown = self.mr("krz/app", 1)
        self.assertEqual((shown["state"], shown["merged_by"]), ("merged", "alice"))
        self.assertEqual(self.feed()[0]["kind"], "mr.merged")
        self.assertEqual(self.feed()[0]["actor"], "alice")

    def test_status_set_on_the_head_merges_a_queued_mr(self):
        self.start(forge([app_repo(settings={"require_checks": True},
                                   statuses={SHA_B: [{"context": "ext/lint", "state": "pending"}]})]))
        self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        self.assertEqual(self.mr("krz/app", 1)["state"], "open")
        self.ok("status", "set", "krz/app", SHA_B, "--context", "ext/lint", "--state", "success")
        self.assertEqual(self.mr("krz/app", 1)["state"], "merged")
        self.assertEqual([(e["kind"], e["actor"]) for e in self.feed()], [("mr.merged", "alice"), ("status", BOT)])

    def test_a_push_retries_the_queued_merge(self):
        self.start(forge([app_repo(settings={"require_approvals": 1})]))
        self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        # guess: the pusher may write; the new head still has to pass (no approval): stays queued.
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "actor": "cmc"})
        shown = self.mr("krz/app", 1)
        self.assertEqual((shown["state"], shown["queued"]["by"]), ("open", "alice"))
        self.assertIn("approval", shown["queued"]["reason"])

    def test_a_push_of_an_already_passed_commit_merges_the_queued_mr_as_the_queuer(self):
        builds = [{"number": 1, "job": "test", "status": "success", "sha": SHA_E, "ref": "feat-3",
                   "created_at": "2026-11-01T00:00:00Z"}]
        statuses = {SHA_B: [{"context": "ci/test", "state": "failure"}],
                    SHA_E: [{"context": "ci/test", "state": "success"}]}
        self.start(forge([app_repo(builds=builds, statuses=statuses, settings={"require_checks": True})]))
        self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "actor": "cmc"})
        shown = self.mr("krz/app", 1)
        self.assertEqual((shown["state"], shown["merged_by"]), ("merged", "alice"))
        self.assertEqual([(e["kind"], e["actor"], e["data"]) for e in self.feed()],
                         [("mr.merged", "alice", {"number": 1, "sha": SHA_E})])

    def test_queueing_a_mergeable_mr_merges_it_at_once(self):
        self.start(forge([app_repo()]))
        data = self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        self.assertEqual(data, {"number": 1, "strategy": "ff", "sha": SHA_B})

    def test_cancel_leaves_a_system_comment_and_a_closed_mr_cannot_be_queued(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready")
        self.assertEqual(self.ok("mr", "merge", "krz/app", "2", "--cancel"), {"number": 2, "queued": False})
        self.assertEqual(self.mr("krz/app", 2)["comments"][-1]["body"], "triage-bot cancelled the queued merge")
        self.ok("mr", "close", "krz/app", "2")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "2", "--when-ready")[:2], (400, 2))

    def test_a_deleted_source_branch_dequeues(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready", token=ALICE)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-2", "delete": True})
        shown = self.mr("krz/app", 2)
        self.assertEqual(shown["state"], "source_gone")
        self.assertNotIn("queued", shown)
        self.assertEqual(shown["comments"][-1]["body"],
                         "dequeued the merge queued by alice: the source branch was deleted")


class ChecksFollowTheHeadTests(StateSim):
    """control/mr.go runMRShow and MergeGates read the statuses of the current head;
    control/build.go QueueBranchBuilds/queueJobs, runRunnerDone, resolveCancelledCommitStatus;
    control/refsupdated.go RefsUpdated; store/mrs.go UpdateMRHead."""

    def test_a_push_makes_the_checks_pending_per_job(self):
        self.start(forge([app_repo(ci_jobs=["lint", "test"],
                                   statuses={SHA_B: [{"context": "ci/test", "state": "success"}]})]))
        self.assertEqual(self.mr("krz/app", 1)["checks_combined"], "success")
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "subject": "fix"})
        shown = self.mr("krz/app", 1)
        self.assertEqual(shown["head_sha"], SHA_E)
        self.assertEqual([(c["context"], c["state"]) for c in shown["checks"]],
                         [("ci/lint", "pending"), ("ci/test", "pending")])
        self.assertEqual(shown["checks_combined"], "pending")
        builds = [b for b in self.sim.data("build", "list", "krz/app") if b["sha"] == SHA_E]
        self.assertEqual(sorted((b["job"], b["status"], b["ref"], b["subject"]) for b in builds),
                         [("lint", "pending", "feat-1", "fix"), ("test", "pending", "feat-1", "fix")])

    def test_a_commit_with_a_live_or_passed_build_is_not_queued_again(self):
        self.start(forge([app_repo(ci_jobs=["test"])]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E})
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        self.assertEqual(len([b for b in self.sim.data("build", "list", "krz/app") if b["sha"] == SHA_E]), 1)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-2", "sha": SHA_A})  # main's, passed
        self.assertEqual([b["number"] for b in self.sim.data("build", "list", "krz/app") if b["sha"] == SHA_A], [1])

    def test_a_build_result_sets_the_check(self):
        self.start(forge([app_repo(ci_jobs=["test"])]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        build = self.sim.data("build", "list", "krz/app")[0]["number"]
        self.sim.control(finish_build={"repo": "krz/app", "number": build, "status": "running"})
        self.assertEqual(self.mr("krz/app", 1)["checks"][0]["state"], "pending")
        self.sim.control(finish_build={"repo": "krz/app", "number": build, "status": "failure",
                                       "failed_step": 2, "failed_reason": "exit 1"})
        self.assertEqual(self.mr("krz/app", 1)["checks"][0]["state"], "failure")
        shown = self.sim.data("build", "show", "krz/app", str(build))
        self.assertEqual((shown["status"], shown["failed_step"], shown["failed_reason"]), ("failure", 2, "exit 1"))

    def test_a_cancel_resolves_the_check(self):
        self.start(forge([app_repo(ci_jobs=["test"])]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        build = self.sim.data("build", "list", "krz/app")[0]["number"]
        self.ok("build", "cancel", "krz/app", str(build))
        self.assertEqual(self.mr("krz/app", 1)["checks"][0]["state"], "error")
        # A late runner report on the cancelled build changes nothing.
        self.sim.control(finish_build={"repo": "krz/app", "number": build, "status": "success"})
        self.assertEqual(self.sim.data("build", "show", "krz/app", str(build))["status"], "cancelled")

    def test_a_merge_queues_the_target_branchs_builds(self):
        self.start(forge([app_repo(ci_jobs=["test"])]))
        self.ok("mr", "merge", "krz/app", "1")
        builds = self.sim.data("build", "list", "krz/app", "--ref", "main")
        self.assertEqual([(b["sha"], b["status"]) for b in builds][0], (SHA_B, "pending"))

    def test_without_jobs_a_push_queues_nothing(self):
        self.start(forge([app_repo(builds=[])]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        self.assertEqual(self.sim.data("build", "list", "krz/app"), [])
        self.assertEqual(self.mr("krz/app", 1)["checks"], [])

    def test_a_push_moves_updated_at_stales_reviews_and_reopens_a_source_gone_mr(self):
        reviews = [{"reviewer": "cmc", "verdict": "approve", "stale": False, "counts": True,
                    "created_at": "2026-11-01T00:00:00.000Z"}]
        self.start(forge([app_repo(merge_requests=[
            {"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
             "target_ref": "main", "head_sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z", "reviews": reviews},
            {"number": 3, "title": "gone", "state": "source_gone", "author": "alice", "source": "feat-9",
             "target_ref": "main", "head_sha": SHA_C, "created_at": "2026-11-01T00:00:00.000Z"}])]))
        self.sim.control(advance_seconds=60)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        self.assertEqual(self.query_updated_at("repo:krz/app is:mr", 1), "2026-11-29T12:01:00.000Z")
        self.assertTrue(self.mr("krz/app", 1)["reviews"][0]["stale"])
        self.sim.control(push={"repo": "krz/app", "branch": "feat-9", "sha": SHA_D})
        self.assertEqual(self.mr("krz/app", 3)["state"], "open")
        self.assertEqual(self.feed(), [])


class CommitMessageTests(StateSim):
    """control/commitrefs.go ProcessCommitMessages and ProcessMRDescription: what lands on the
    default branch acts on the issues it names; the only trace of a push the feed can show."""

    def test_a_push_to_the_default_branch_closes_the_issues_its_commits_close(self):
        self.start(forge([app_repo(issues=[
            {"number": 1, "title": "a bug", "state": "open", "author": "alice",
             "created_at": "2026-11-01T00:00:00.000Z"},
            {"number": 2, "title": "another", "state": "open", "author": "alice",
             "created_at": "2026-11-01T00:00:00.000Z"}])]))
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": SHA_E, "actor": "cmc",
                               "messages": [{"message": "Fixes #1, see #2", "author": "cmc"}]})
        self.assertEqual([(e["kind"], e["actor"], e["data"]) for e in self.feed()],
                         [("issue.closed", "cmc", {"number": 1, "sha": SHA_E})])
        first = self.sim.data("issue", "show", "krz/app", "1")
        self.assertEqual(first["state"], "closed")
        self.assertEqual(first["comments"][-1]["body"],
                         "closed by commit [eeeeeeeeee](/krz/app/commit/%s) by cmc: Fixes #1, see #2" % SHA_E)
        second = self.sim.data("issue", "show", "krz/app", "2")
        self.assertEqual((second["state"], second["comments"][-1]["author"]), ("open", "system"))
        self.assertTrue(second["comments"][-1]["body"].startswith("referenced in commit"))
        # The same commit landing again acts no more.
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E})
        self.assertEqual(len(self.feed()), 1)

    def test_a_push_to_another_branch_acts_on_nothing(self):
        self.start(forge([app_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E,
                               "messages": [{"message": "closes #1"}]})
        self.assertEqual(self.sim.data("issue", "show", "krz/app", "1")["state"], "open")
        self.assertEqual(self.feed(), [])

    def test_a_merge_into_the_default_branch_closes_what_its_description_closes(self):
        mrs = [{"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
                "target_ref": "main", "head_sha": SHA_B, "body": "Closes #1.",
                "created_at": "2026-11-01T00:00:00.000Z"}]
        self.start(forge([app_repo(merge_requests=mrs)]))
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual([(e["kind"], e["actor"], e["data"]) for e in reversed(self.feed())],
                         [("mr.merged", BOT, {"number": 1, "sha": SHA_B}),
                          ("issue.closed", BOT, {"number": 1, "mr": 1})])
        self.assertEqual(self.sim.data("issue", "show", "krz/app", "1")["comments"][-1]["body"],
                         "closed by merge request [!1](/krz/app/mrs/1): parent")


class ExitCodeTests(StateSim):
    """control/mr.go runMRMerge, mergeMR, runMRClose, setMRDraft; mergequeue.go cancelQueuedMerge."""

    def test_merging_a_merged_or_closed_mr_is_exit_2(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "1"), (400, 2, "MR !1 is merged"))
        self.ok("mr", "close", "krz/app", "2")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "2"), (400, 2, "MR !2 is closed"))

    def test_a_source_gone_mr_can_merge(self):
        self.start(forge([app_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "delete": True})
        self.assertEqual(self.mr("krz/app", 1)["state"], "source_gone")
        self.assertEqual(self.ok("mr", "merge", "krz/app", "1")["sha"], SHA_B)

    def test_cancel_with_nothing_queued_is_exit_1(self):
        self.start(forge([app_repo()]))
        self.assertEqual(self.refused("mr", "merge", "krz/app", "1", "--cancel"),
                         (500, 1, "!1 is not queued to merge"))

    def test_a_head_already_on_the_target_is_recorded_as_merged(self):
        self.start(forge([app_repo(branches={"main": SHA_B, "feat-1": SHA_B, "feat-2": SHA_C, "feat-3": SHA_D},
                                   ci_jobs=["test"])]))
        self.assertEqual(self.ok("mr", "merge", "krz/app", "1"), {"number": 1, "strategy": "recorded", "sha": SHA_B})
        self.assertEqual([(e["kind"], e["data"]) for e in self.feed()], [("mr.merged", {"number": 1})])
        self.assertEqual(self.mr("krz/app", 2)["target_ref"], "feat-1")  # nothing is retargeted
        self.assertEqual(len(self.sim.data("build", "list", "krz/app")), 1)  # nor built

    def test_unmet_gates_are_exit_4_before_a_stack_refusal(self):
        self.start(forge([app_repo(settings={"require_approvals": 1})]))
        self.assertEqual(self.refused("mr", "merge", "krz/app", "1", "--strategy", "squash")[:2], (403, 4))

    def test_close_checks_the_state_before_by(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "close", "krz/app", "2")
        self.assertEqual(self.refused("mr", "close", "krz/app", "2", "--by", "2"),
                         (400, 2, "MR !2 is already closed"))
        self.assertEqual(self.refused("mr", "close", "krz/app", "1", "--by", "9")[:2], (404, 3))
        self.assertEqual(self.refused("mr", "ready", "krz/app", "2"), (400, 2, "MR !2 is closed"))


    def test_an_archived_repository_finds_the_item_first(self):
        self.start(forge([dict(app_repo(), archived=True)]))
        for argv in (("issue", "label", "krz/app", "9", "--add", "x"), ("issue", "close", "krz/app", "9"),
                     ("mr", "ready", "krz/app", "9"), ("issue", "comment", "krz/app", "9", "--message", "x")):
            self.assertEqual(self.refused(*argv)[1], 3, argv)
        self.assertEqual(self.refused("issue", "close", "krz/app", "1")[1], 4)
        self.assertEqual(self.refused("mr", "ready", "krz/app", "2")[1], 4)


class EmptyListAndPagingTests(StateSim):
    """control/control.go emit (nil slice -> []), control/cursor.go trimPage/emitPage."""

    def test_empty_lists_are_arrays(self):
        self.start(forge([dict(app_repo(), milestones=[], issues=[], merge_requests=[], builds=[], labels=[])]))
        for argv in (("milestone", "list", "krz/app"), ("issue", "list", "krz/app"), ("mr", "list", "krz/app"),
                     ("build", "list", "krz/app"), ("label", "list", "krz/app"), ("feed",)):
            status, _, body = self.sim.raw("GET", "/api/v1/read?" + "&".join("argv=" + a for a in argv))
            self.assertIn(b'"data":[]', body, argv)
        self.assertEqual(self.sim.data("build", "list", "krz/app", "--limit", "5"), {"items": []})

    def test_an_org_without_repositories_lists_no_milestones(self):
        self.start(forge([app_repo()], orgs={"empty-org": {"members": [BOT]}}))
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=org&argv=milestone&argv=list&argv=empty-org")
        self.assertEqual(status, 200, body)
        self.assertIn(b'"data":[]', body)

    def test_build_list_with_a_cursor_alone_has_no_next(self):
        builds = [{"number": n, "job": "test", "status": "success", "sha": SHA_A, "ref": "main",
                   "created_at": "2026-11-01T00:00:00Z"} for n in range(1, 71)]
        self.start(forge([app_repo(builds=builds)]))
        first = self.sim.data("build", "list", "krz/app", "--limit", "5")
        self.assertIn("next", first)
        rest = self.sim.data("build", "list", "krz/app", "--cursor", first["next"])
        self.assertEqual([b["number"] for b in rest["items"]], list(range(65, 15, -1)))
        self.assertNotIn("next", rest)
        self.assertEqual(len(self.sim.data("build", "list", "krz/app")), 50)


class StatusCommandTests(StateSim):
    """control/status.go runStatusSet, runStatusList."""

    def test_status_set_shows_on_the_mr_and_records_an_event(self):
        self.start(forge([app_repo()]))
        data = self.ok("status", "set", "krz/app", "bbbbbbb", "--context", "ext/lint", "--state", "failure",
                       "--description", "2 problems", "--url", "https://ci.example/1")
        self.assertEqual(data, {"sha": SHA_B, "context": "ext/lint", "state": "failure"})
        shown = self.mr("krz/app", 1)
        self.assertEqual([(c["context"], c["state"], c["url"]) for c in shown["checks"]],
                         [("ext/lint", "failure", "https://ci.example/1")])
        self.assertEqual(self.feed()[0]["data"], {"sha": SHA_B, "context": "ext/lint", "state": "failure"})
        listed = self.sim.data("status", "list", "krz/app", "feat-1")
        self.assertEqual(listed, {"sha": SHA_B, "combined": "failure", "statuses": [
            {"context": "ext/lint", "state": "failure", "description": "2 problems", "url": "https://ci.example/1",
             "creator": BOT}]})
        self.assertEqual(self.sim.data("status", "list", "krz/app", "main"),
                         {"sha": SHA_A, "combined": "", "statuses": None})

    def test_a_commits_statuses_are_listed_by_context(self):
        """store/statuses.go ListCommitStatuses orders by context, for `status list` and `mr show` alike."""
        self.start(forge([app_repo()]))
        for context in ("zeta/deploy", "ext/lint", "alpha/docs"):
            self.ok("status", "set", "krz/app", SHA_B, "--context", context, "--state", "success")
        want = ["alpha/docs", "ext/lint", "zeta/deploy"]
        listed = self.sim.data("status", "list", "krz/app", SHA_B)
        self.assertEqual([st["context"] for st in listed["statuses"]], want)
        self.assertEqual([c["context"] for c in self.mr("krz/app", 1)["checks"]], want)

    def test_status_set_refusals(self):
        self.start(forge([app_repo(), dict(app_repo(), path="krz/old", archived=True)]))
        base = ("status", "set", "krz/app", SHA_B)
        for argv, want in [
            (base + ("--context", "ci/test", "--state", "success"), (403, 4)),
            (base + ("--context", "CI/Test", "--state", "success"), (403, 4)),
            (base + ("--context", "ext/x", "--state", "done"), (400, 2)),
            (base + ("--context", "ext/x"), (400, 2)),
            (base + ("--state", "success"), (400, 2)),
            (base + ("--context", "ext/x", "--state", "success", "--url", "ftp://x"), (400, 2)),
            (base + ("extra", "--context", "ext/x", "--state", "success"), (400, 2)),
            (("status", "set", "krz/app", "f" * 40, "--context", "ext/x", "--state", "success"), (404, 3)),
            (("status", "set", "krz/nope", SHA_B, "--context", "ext/x", "--state", "success"), (404, 3)),
            (("status", "set", "krz/old", SHA_B, "--context", "ext/x", "--state", "success"), (403, 4)),
        ]:
            self.assertEqual(self.refused(*argv)[:2], want, argv)
        status, _, env = self.sim.get(*base, "--context", "ext/x", "--state", "success")
        self.assertEqual((status, env["error"]), (400, "status set changes state; POST it to /api/v1/cmd"))
        self.assertEqual(self.feed(), [])


class UpdatedAtTests(StateSim):
    """store/issues.go and store/mrs.go: which writes move updated_at."""

    def test_which_writes_move_an_issues_updated_at(self):
        self.start(forge([app_repo()]))
        q = "repo:krz/app is:issue"
        base = self.query_updated_at(q, 1)
        for argv in [("issue", "label", "krz/app", "1", "--add", "bug"),
                     ("issue", "assign", "krz/app", "1", "--add", "cmc"),
                     ("issue", "milestone", "krz/app", "1", "v1")]:
            self.sim.control(advance_seconds=60)
            self.ok(*argv)
            self.assertEqual(self.query_updated_at(q, 1), base, argv)
        for argv in (("issue", "comment", "krz/app", "1", "--message", "x"),
                     ("issue", "edit", "krz/app", "1", "--title", "t"), ("issue", "close", "krz/app", "1")):
            self.sim.control(advance_seconds=60)
            before = self.query_updated_at(q, 1)
            self.ok(*argv)
            self.assertNotEqual(self.query_updated_at(q, 1), before, argv)

    def test_which_writes_move_a_merge_requests_updated_at(self):
        self.start(forge([app_repo()]))
        q = "repo:krz/app is:mr"
        base = self.query_updated_at(q, 2)
        for argv in (("mr", "label", "krz/app", "2", "--add", "bug"),
                     ("mr", "comment", "krz/app", "2", "--message", "x")):
            self.sim.control(advance_seconds=60)
            self.ok(*argv)
            self.assertEqual(self.query_updated_at(q, 2), base, argv)
        for argv in (("mr", "ready", "krz/app", "2"), ("mr", "edit", "krz/app", "2", "--title", "t"),
                     ("mr", "merge", "krz/app", "1")):  # the merge retargets !2
            self.sim.control(advance_seconds=60)
            before = self.query_updated_at(q, 2)
            self.ok(*argv)
            self.assertNotEqual(self.query_updated_at(q, 2), before, argv)


class StateFileTests(unittest.TestCase):
    """The forge-state keys the conformance needs: `statuses`, `access`, `ci_jobs`, `orgs`."""

    def test_checks_load_onto_the_head_and_dump_back(self):
        import gitbay_sim
        doc = forge([app_repo(merge_requests=[
            {"number": 1, "title": "parent", "state": "open", "author": "alice", "source": "feat-1",
             "target_ref": "main", "head_sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z",
             "checks": [{"context": "ci/test", "state": "success", "duration": "1m"}]}])])
        f = gitbay_sim.Forge(json.loads(json.dumps(doc)))
        self.assertEqual(f.repos[0]["statuses"],
                         {SHA_B: [{"context": "ci/test", "state": "success", "duration": "1m"}]})
        dumped = f.dump(f.now)
        self.assertEqual(dumped["repos"][0]["merge_requests"][0]["checks"],
                         [{"context": "ci/test", "state": "success", "duration": "1m"}])
        self.assertEqual(gitbay_sim.Forge(json.loads(json.dumps(dumped))).dump(f.now), dumped)

    def test_bad_keys_are_refused(self):
        import gitbay_sim
        for repo in (app_repo(statuses={SHA_B: [{"state": "success"}]}), app_repo(statuses={SHA_B: [
                {"context": "x", "state": "green"}]}), app_repo(access="alice"), app_repo(ci_jobs=[""])):
            with self.assertRaises(gitbay_sim.StateError):
                gitbay_sim.Forge(forge([repo]))
        with self.assertRaises(gitbay_sim.StateError):
            gitbay_sim.Forge(forge([app_repo()], orgs={"krz": ["alice"]}))


class ListenerTests(StateSim):
    """gitbay's listener (Go net/http) takes the kernel's somaxconn as its backlog."""

    def test_many_clients_connecting_at_once_are_all_taken_at_once(self):
        """With socketserver's backlog of 5 the kernel dropped the rest, whose SYN came again a
        second later; a connection either completes at once or waits for that retry, so the half
        second here is a verdict on the backlog, not on speed."""
        sim = self.start(forge([app_repo()]))
        sockets = []
        try:
            for _ in range(64):
                s = socket.socket()
                s.setblocking(False)
                s.connect_ex((sim.host, sim.port))
                sockets.append(s)
            pending, deadline = list(sockets), 0.5
            while pending and deadline > 0:
                _, writable, _ = select.select([], pending, [], 0.05)
                pending = [s for s in pending if s not in writable]
                deadline -= 0.05
            self.assertEqual(pending, [], "%d of 64 connections waited for a SYN retry" % len(pending))
        finally:
            for s in sockets:
                s.close()


# ---------------------------------------------------------------------------------------------
# Webhooks: internal/control/webhook.go, internal/webhook/webhook.go, internal/store/webhooks.go


class Receiver:
    """A webhook endpoint on 127.0.0.1 (port 0): records every request and answers as `respond`
    says: a status, or (status, headers), after `delay` seconds."""

    def __init__(self):
        import http.server
        import threading
        self.requests = []
        self.status = 200
        self.headers = {}
        self.delay = 0.0
        self.cond = threading.Condition()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with receiver.cond:
                    receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body,
                                              "at": time.monotonic()})
                    receiver.cond.notify_all()
                    status, headers, delay = receiver.status, dict(receiver.headers), receiver.delay
                if delay:
                    time.sleep(delay)  # an endpoint that answers late is what the test asks for
                try:
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            block_on_close = False

        self.server = Server(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/hook" % self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def wait_for(self, n, timeout=5.0):
        """The first n requests, waiting at most `timeout` seconds for them."""
        with self.cond:
            self.cond.wait_for(lambda: len(self.requests) >= n, timeout)
            return list(self.requests)

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


WEBHOOK_FAST = ("--time-scale", "20", "--webhook-allow-local", "--webhook-retry-base", "0.2")


class WebhookTests(StateSim):
    """The `webhook` commands and the deliverer, against a receiver on loopback."""

    def setUp(self):
        self.receiver = Receiver()
        self.addCleanup(self.receiver.stop)

    def start_hooks(self, repos=None, *extra, **top):
        return self.start(forge(repos or [app_repo()], **top), *(extra or WEBHOOK_FAST))

    def add_hook(self, *more, repo="krz/app", stdin=None):
        return self.ok("webhook", "add", repo, self.receiver.url, *more, stdin=stdin)

    def deliveries(self, repo="krz/app", *more):
        return self.sim.data("webhook", "deliveries", repo, *more)

    def wait_deliveries(self, done, repo="krz/app", timeout=8.0):
        """Polls `webhook deliveries` until done(rows) holds; bounded."""
        deadline = time.monotonic() + timeout
        while True:
            rows = self.deliveries(repo)
            if done(rows) or time.monotonic() > deadline:
                return rows
            time.sleep(0.02)

    def webhook_stats(self):
        status, _, body = self.sim.raw("GET", "/_sim/stats")
        self.assertEqual(status, 200)
        return json.loads(body)["webhooks"]

    def stats(self):
        """The deliverer's counts of deliveries; its ticks are wait_ticks' business."""
        counts = self.webhook_stats()
        del counts["ticks"]
        return counts

    def wait_ticks(self, n, timeout=8.0):
        """Waits (bounded) until n whole ticks of the deliverer began after the call: a tick under
        way when it was called counts for none. What a tick would send, it has sent by then."""
        wanted = self.webhook_stats()["ticks"] + n + 1
        deadline = time.monotonic() + timeout
        while self.webhook_stats()["ticks"] < wanted:
            self.assertLess(time.monotonic(), deadline, "the deliverer stopped ticking")
            time.sleep(0.02)

    def comment(self, repo="krz/app"):
        self.ok("issue", "comment", repo, "1", "--message", "hi")

    # the commands

    def test_add_parses_its_argv_as_gitbay(self):
        self.start_hooks()
        usage = "usage: webhook add <owner/name> <url> [--secret -] [--events push,issue.created|*]"
        self.assertEqual(self.refused("webhook", "add", "krz/app"), (400, 2, usage))
        self.assertEqual(self.refused("webhook", "add", "krz/app", "http://a/", "extra")[1], 2)
        self.assertEqual(self.refused("webhook", "add", "krz/app", "http://a/", "--secrets", "-")[1], 2)
        self.assertEqual(self.refused("webhook", "add", "krz/app", "http://a/", "--events")[1], 2)
        status, code, msg = self.refused("webhook", "add", "krz/app", self.receiver.url, "--secret", "hunter2")
        self.assertEqual((status, code), (400, 2))
        self.assertTrue(msg.startswith("the secret is read from stdin, never argv"), msg)
        _, _, env = self.sim.post("webhook", "add", "krz/app", self.receiver.url, "--secret", "-", stdin="\r\n")
        self.assertEqual((env["exit_code"], env["error"]),
                         (2, "no secret on stdin (pipe it: printf %s SECRET | ... --secret -)"))
        self.assertEqual(self.add_hook(), {"id": 1, "url": self.receiver.url, "events": "*"})
        self.assertEqual(self.add_hook("--events", "push,issue.created", "--json"),
                         {"id": 2, "url": self.receiver.url, "events": "push,issue.created"})
        self.assertEqual(self.sim.get("webhook", "add", "krz/app", self.receiver.url)[0], 400)  # a write

    def test_add_needs_admin_on_the_repository(self):
        repos = [app_repo(), dict(app_repo(), path="krz/shared", admins=["alice"]),
                 dict(app_repo(), path="alice/own", access=[]),
                 dict(app_repo(), path="acme/lib", access=[]),
                 dict(app_repo(), path="krz/secret", visibility="private", access=[])]
        self.start_hooks(repos, orgs={"acme": {"members": ["alice"], "admins": ["alice"]}})
        self.add_hook(repo="krz/app")  # `me` administers a repository without `admins`
        self.assertEqual(self.refused("webhook", "add", "krz/app", self.receiver.url, token=ALICE),
                         (403, 4, "permission denied on krz/app; ask its owner for access"))
        self.assertEqual(self.refused("webhook", "add", "krz/shared", self.receiver.url),
                         (403, 4, "permission denied on krz/shared; ask its owner for access"))
        self.assertEqual(self.refused("webhook", "add", "krz/secret", self.receiver.url, token=ALICE),
                         (404, 3, "repository krz/secret not found"))
        self.assertEqual(self.refused("webhook", "add", "krz/none", self.receiver.url),
                         (404, 3, "repository krz/none not found"))
        for repo in ("krz/shared", "alice/own", "acme/lib"):  # a grant, the owner, an org admin
            _, _, env = self.sim.post("webhook", "add", repo, self.receiver.url, token=ALICE)
            self.assertEqual(env["exit_code"], 0, (repo, env))
        for argv in (("list", "krz/app"), ("deliveries", "krz/app"), ("remove", "krz/app", "1"),
                     ("redeliver", "krz/app", "1")):
            self.assertEqual(self.refused("webhook", *argv, token=ALICE)[1], 4, argv)

    def test_event_names_are_checked_before_the_url(self):
        self.start_hooks()
        _, code, msg = self.refused("webhook", "add", "krz/app", "ftp://nowhere/", "--events", "push,pusj")
        self.assertEqual(code, 2)
        self.assertTrue(msg.startswith('"pusj" is not an event this forge records; known events are: '
                                       'build.cancelled, build.failure, build.success, issue.assigned'), msg)
        self.assertTrue(msg.endswith("repo.unarchived, status"), msg)
        self.assertEqual(self.refused("webhook", "add", "krz/app", self.receiver.url, "--events", "push,,status"),
                         (400, 2, "empty event name in --events"))
        self.assertEqual(self.refused("webhook", "add", "krz/app", self.receiver.url, "--events", "*,push")[1], 2)
        self.add_hook("--events", "push, issue.commented")  # trimmed for the check, stored as given

    def test_a_bad_url_is_exit_1_with_the_reason(self):
        self.start_hooks()
        for url, reason in (("ftp://example.org/", "webhook URLs must be http or https"),
                            ("example.org/hook", "webhook URLs must be http or https"),
                            ("http:///hook", "webhook URL has no host")):
            self.assertEqual(self.refused("webhook", "add", "krz/app", url), (500, 1, reason), url)

    def test_loopback_and_private_targets_are_refused_unless_allowed(self):
        self.start_hooks([app_repo()], "--time-scale", "20")
        for host in ("127.0.0.1", "localhost", "[::1]", "10.1.2.3", "172.16.0.9", "192.168.1.1", "100.64.0.1",
                     "169.254.169.254", "0.0.0.0", "224.0.0.1", "[fe80::1]", "[::ffff:127.0.0.1]"):
            status, code, msg = self.refused("webhook", "add", "krz/app", "http://%s:8080/hook" % host)
            self.assertEqual((status, code), (500, 1), host)
            self.assertEqual(msg, "webhook target %s resolves to a private or local address; refusing (SSRF)"
                             % host.strip("[]"), host)
        self.assertEqual(self.sim.data("webhook", "list", "krz/app"), [])
        self.sim.stop()
        self.start_hooks()  # --webhook-allow-local
        self.add_hook()

    def test_a_hook_on_a_local_address_is_refused_again_when_it_connects(self):
        self.start_hooks([app_repo(webhooks=[{"id": 4, "url": self.receiver.url}])], "--time-scale", "20")
        self.comment()
        rows = self.wait_deliveries(lambda rows: rows and rows[0]["attempts"] >= 1)
        self.assertEqual(rows[0]["last_error"],
                         'Post "%s": refusing connection to private address 127.0.0.1' % self.receiver.url)
        self.assertNotIn("last_status", rows[0])
        self.assertEqual(self.receiver.requests, [])

    def test_list_rows_and_read_only(self):
        self.start_hooks([app_repo(webhooks=[{"id": 7, "url": "http://hooks.example/a", "events": "push",
                                              "active": False}])])
        self.add_hook(stdin="s3cret", *("--secret", "-"))
        self.assertEqual(self.sim.data("webhook", "list", "krz/app"), [
            {"id": 7, "url": "http://hooks.example/a", "events": "push", "active": False, "has_secret": False},
            {"id": 8, "url": self.receiver.url, "events": "*", "active": True, "has_secret": True}])
        self.assertEqual(self.refused("webhook", "list", "krz/app", "x"),
                         (400, 2, "usage: webhook list <owner/name>"))
        status, _, env = self.sim.get("webhook", "list", "krz/app", token=READ_ONLY)
        self.assertEqual((status, env["exit_code"]), (200, 0))
        status, _, env = self.sim.post("webhook", "remove", "krz/app", "7", token=READ_ONLY)
        self.assertEqual(env["exit_code"], 4)

    def test_remove(self):
        self.start_hooks([app_repo(), dict(app_repo(), path="krz/other", webhooks=[{"id": 9, "url": "http://h/"}])])
        hook = self.add_hook()["id"]
        self.comment()
        self.assertEqual(self.refused("webhook", "remove", "krz/app", "one"), (400, 2, 'bad webhook id "one"'))
        self.assertEqual(self.refused("webhook", "remove", "krz/app", "9"), (404, 3, "no webhook 9 on krz/app"))
        self.assertEqual(self.refused("webhook", "remove", "krz/app", "77"), (404, 3, "no webhook 77 on krz/app"))
        self.assertEqual(self.ok("webhook", "remove", "krz/app", "+%d" % hook), {"removed": hook})
        self.assertEqual(self.sim.data("webhook", "list", "krz/app"), [])
        self.assertEqual(self.deliveries(), [])  # its deliveries went with it

    def test_deliveries_rows_limit_and_order(self):
        self.start_hooks()
        self.ok("webhook", "add", "krz/app", "http://127.0.0.1:1/closed")  # nothing listens on port 1
        self.sim.control(deliveries_paused=True)
        for _ in range(22):
            self.comment()
        for bad in ("0", "201", "x", "1.5"):
            self.assertEqual(self.refused("webhook", "deliveries", "krz/none", "--limit", bad),
                             (400, 2, "--limit must be 1..200"), bad)
        self.assertEqual(self.refused("webhook", "deliveries"),
                         (400, 2, "usage: webhook deliveries <owner/name> [--limit n]"))
        rows = self.deliveries()
        self.assertEqual([r["id"] for r in rows], list(range(22, 2, -1)))  # 20, newest first
        self.assertEqual(rows[0], {"id": 22, "url": "http://127.0.0.1:1/closed", "event": "issue.commented",
                                   "status": "pending", "attempts": 0})
        self.assertEqual(len(self.deliveries("krz/app", "--limit", "200")), 22)
        self.assertEqual([r["id"] for r in self.deliveries("krz/app", "--limit", "2")], [22, 21])
        self.sim.control(deliveries_paused=False)
        rows = self.wait_deliveries(lambda rows: all(r["attempts"] >= 1 for r in rows), timeout=8)
        self.assertEqual(rows[0]["last_error"],
                         'Post "http://127.0.0.1:1/closed": dial tcp 127.0.0.1:1: connect: connection refused')
        self.assertNotIn("last_status", rows[0])  # omitempty: a transport error has no status

    def test_redeliver_requeues_without_resetting_attempts(self):
        self.start_hooks()
        self.add_hook()
        self.receiver.status = 500
        self.comment()
        rows = self.wait_deliveries(lambda rows: rows and rows[0]["status"] == "failed")
        self.assertEqual((rows[0]["attempts"], rows[0]["status"]), (5, "failed"))
        self.assertEqual(self.refused("webhook", "redeliver", "krz/app", "x"), (400, 2, 'bad delivery id "x"'))
        self.assertEqual(self.refused("webhook", "redeliver", "krz/app", "99"), (404, 3, "no delivery 99 on krz/app"))
        self.assertEqual(self.ok("webhook", "redeliver", "krz/app", "1"), {"requeued": 1})
        rows = self.wait_deliveries(lambda rows: rows[0]["status"] != "pending")
        # attempts stayed at 5, so one more failure dead-letters it again at once
        self.assertEqual((rows[0]["attempts"], rows[0]["status"]), (6, "failed"))
        self.assertEqual(len(self.receiver.wait_for(6)), 6)
        self.receiver.status = 204
        self.ok("webhook", "redeliver", "krz/app", "1")
        rows = self.wait_deliveries(lambda rows: rows[0]["status"] == "delivered")
        self.assertEqual(rows[0], {"id": 1, "url": self.receiver.url, "event": "issue.commented",
                                   "status": "delivered", "attempts": 7, "last_status": 204})
        self.wait_ticks(2)  # a delivered delivery is not sent again
        self.assertEqual(len(self.receiver.requests), 7)

    # which events go where

    def test_deliveries_are_created_for_matching_active_hooks_of_the_events_repository(self):
        repos = [app_repo(webhooks=[{"id": 1, "url": self.receiver.url + "?all", "events": "*"},
                                    {"id": 2, "url": self.receiver.url + "?push", "events": "push"},
                                    {"id": 3, "url": self.receiver.url + "?list", "events": "push,issue.commented"},
                                    {"id": 4, "url": self.receiver.url + "?spaced", "events": "push, issue.commented"},
                                    {"id": 5, "url": self.receiver.url + "?off", "active": False}]),
                 dict(app_repo(), path="krz/other", webhooks=[{"id": 6, "url": self.receiver.url + "?other"}])]
        self.start_hooks(repos)
        self.comment()
        rows = self.wait_deliveries(lambda rows: len(rows) == 2 and all(r["status"] == "delivered" for r in rows))
        # `*` and the list naming the kind; not `push` alone, not "push, issue.commented" (the space
        # stays in the stored list, so its LIKE never matches), not the inactive hook.
        self.assertEqual(sorted(r["url"].partition("?")[2] for r in rows), ["all", "list"])
        self.assertEqual(sorted(r["path"] for r in self.receiver.wait_for(2)), ["/hook?all", "/hook?list"])
        self.assertEqual(self.deliveries("krz/other"), [])

    def test_push_is_delivered_though_the_feed_never_shows_it(self):
        self.start_hooks([app_repo(webhooks=[{"id": 1, "url": self.receiver.url, "events": "push"}])])
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E, "actor": "alice"})
        self.assertEqual(self.feed(), [])
        body = self.receiver.wait_for(1)[0]["body"]
        self.assertEqual(body, ('{"event":"push","repo":"krz/app","actor":"alice","created_at":'
                                '"2026-11-29T12:00:00.000Z","data":{"ref":"refs/heads/feat-3","old":"%s",'
                                '"new":"%s","forced":false,"deleted":false}}' % (SHA_D, SHA_E)).encode())

    # what is sent

    def test_payload_headers_and_signature(self):
        import hashlib
        import hmac
        self.start_hooks()
        self.add_hook("--secret", "-", stdin="s3cret\r\n")
        self.ok("webhook", "add", "krz/app", self.receiver.url + "?plain")
        self.ok("issue", "create", "krz/app", "--title", "a <b> & c")
        reqs = sorted(self.receiver.wait_for(2), key=lambda r: r["path"])
        signed, plain = reqs
        body = signed["body"]
        self.assertEqual(json.loads(body), {"event": "issue.created", "repo": "krz/app", "actor": BOT,
                                            "created_at": "2026-11-29T12:00:00.000Z", "data": {"number": 2}})
        self.assertTrue(body.startswith(b'{"event":"issue.created","repo":"krz/app","actor":"triage-bot",'
                                        b'"created_at":'), body)
        h = signed["headers"]
        self.assertEqual(h["Content-Type"], "application/json")
        self.assertEqual(h["User-Agent"], "gitbay-webhook")
        self.assertEqual(h["X-Gitbay-Event"], "issue.created")
        ids = {r["path"]: r["headers"]["X-Gitbay-Delivery"] for r in reqs}
        self.assertEqual(sorted(ids.values()), ["1", "2"])
        self.assertEqual(h["X-Gitbay-Signature-256"],
                         "sha256=" + hmac.new(b"s3cret", body, hashlib.sha256).hexdigest())  # CR LF trimmed
        self.assertNotIn("X-Gitbay-Signature-256", plain["headers"])
        self.assertEqual(plain["body"], body)

    def test_the_body_is_go_json_and_leaves_an_empty_actor_out(self):
        import gitbay_sim
        event = {"id": 1, "repo": "krz/app", "kind": "issue.edited", "created_at": "2026-11-29T12:00:00.000Z",
                 "data": {"number": 3, "title": "<é>&\u2028"}}
        self.assertEqual(gitbay_sim.delivery_body(event),
                         '{"event":"issue.edited","repo":"krz/app","created_at":"2026-11-29T12:00:00.000Z",'
                         '"data":{"number":3,"title":"\\u003cé\\u003e\\u0026\\u2028"}}'.encode())

    # the deliverer's timing and retries

    def test_deliveries_go_out_on_the_tick_twenty_at_a_time_in_id_order(self):
        self.start_hooks([app_repo()], "--webhook-allow-local")  # gitbay's own 2 s tick
        self.add_hook()
        self.sim.control(deliveries_paused=True)
        for _ in range(25):
            self.comment()
        self.sim.control(deliveries_paused=False)
        reqs = self.receiver.wait_for(25, timeout=15)
        self.assertEqual([r["headers"]["X-Gitbay-Delivery"] for r in reqs], [str(n) for n in range(1, 26)])
        gaps = [b["at"] - a["at"] for a, b in zip(reqs, reqs[1:])]
        self.assertEqual(max(range(len(gaps)), key=gaps.__getitem__), 19, gaps)  # the wait is after the 20th
        self.assertGreaterEqual(gaps[19], 1.95, gaps)
        self.assertLess(max(gaps[:19]), 1.0, gaps)

    def test_failed_attempts_back_off_doubling_then_dead_letter_at_five(self):
        self.start_hooks([app_repo()], "--time-scale", "10", "--webhook-allow-local", "--webhook-retry-base", "1")
        self.add_hook()
        self.receiver.status = 503
        self.comment()
        reqs = self.receiver.wait_for(5, timeout=15)
        self.assertEqual(len(reqs), 5, (self.deliveries(), self.stats()))
        gaps = [b["at"] - a["at"] for a, b in zip(reqs, reqs[1:])]
        for k, gap in enumerate(gaps):  # base 1 s / scale 10, doubling: 0.1, 0.2, 0.4, 0.8 at least
            self.assertGreaterEqual(gap, 0.1 * (1 << k) * 0.95, gaps)
        rows = self.wait_deliveries(lambda rows: rows[0]["status"] == "failed")
        self.assertEqual(rows[0], {"id": 1, "url": self.receiver.url, "event": "issue.commented", "status": "failed",
                                   "attempts": 5, "last_status": 503, "last_error": "endpoint returned 503"})
        # Nothing after the fifth attempt: a sixth would be due 1.6 s on (1 s << 4, scaled by 10),
        # which nine ticks of 0.2 s pass.
        self.wait_ticks(9)
        self.assertEqual(len(self.receiver.requests), 5)
        self.assertEqual(self.stats(), {"attempted": 5, "delivered": 0, "failed": 5, "dead_lettered": 1})

    def test_a_redirect_is_not_followed(self):
        self.start_hooks()
        self.add_hook()
        self.receiver.status, self.receiver.headers = 302, {"Location": "/elsewhere"}
        self.comment()
        rows = self.wait_deliveries(lambda rows: rows[0]["attempts"] >= 1)
        self.assertEqual((rows[0]["last_status"], rows[0]["last_error"]), (302, "endpoint returned 302"))
        self.assertTrue(all(r["path"] == "/hook" for r in self.receiver.requests))

    def test_the_client_gives_up_after_ten_seconds(self):
        self.start_hooks([app_repo()], "--time-scale", "20", "--webhook-allow-local")  # 0.5 s, retry 1.5 s
        self.add_hook()
        self.receiver.delay = 6.0
        self.comment()
        sent = self.receiver.wait_for(1)[0]["at"]
        rows = self.wait_deliveries(lambda rows: rows[0]["attempts"] >= 1)
        self.assertLess(time.monotonic() - sent, 4.0)  # long before the receiver answers
        self.assertEqual(rows[0]["last_error"], 'Post "%s": context deadline exceeded (Client.Timeout exceeded '
                                                'while awaiting headers)' % self.receiver.url)
        self.assertEqual(rows[0]["status"], "pending")

    def test_paused_deliveries_stay_pending_and_the_stats_count_them(self):
        self.start_hooks()
        self.add_hook()
        self.assertEqual(self.sim.control(deliveries_paused=True)["deliveries_paused"], True)
        self.comment()
        self.wait_ticks(2)  # ticks that would have taken the due delivery
        self.assertEqual(self.receiver.requests, [])
        self.assertEqual(self.deliveries()[0]["status"], "pending")
        self.sim.control(deliveries_paused=False)
        self.wait_deliveries(lambda rows: rows[0]["status"] == "delivered")
        self.assertEqual(self.stats(), {"attempted": 1, "delivered": 1, "failed": 0, "dead_lettered": 0})
        status, _, _ = self.sim.raw("POST", "/_sim/control", body={"deliveries_paused": "yes"})
        self.assertEqual(status, 400)

    def test_the_deliverer_stops_with_the_simulator(self):
        self.start_hooks([app_repo()], "--webhook-allow-local")  # scale 1: a 10 s client timeout
        self.add_hook()
        self.receiver.delay = 8.0
        self.comment()
        self.receiver.wait_for(1, timeout=5)  # a delivery is in flight
        began = time.monotonic()
        self.sim.proc.terminate()
        self.assertEqual(self.sim.proc.wait(timeout=6), 0)
        self.assertLess(time.monotonic() - began, 4.0)  # the POST under way is cut off, not waited for


class WebhookStateFileTests(unittest.TestCase):
    """The forge-state keys of webhooks: a repository's `webhooks` and `admins`, an org's `admins`."""

    def test_webhooks_load_and_dump_back(self):
        import gitbay_sim
        doc = forge([app_repo(admins=["alice"], webhooks=[{"id": 3, "url": "http://h/a", "secret": "s"},
                                                          {"id": 5, "url": "http://h/b", "events": "push",
                                                           "active": False}]),
                     dict(app_repo(), path="acme/lib", webhooks=[{"id": 4, "url": "http://h/c"}])],
                    orgs={"acme": {"members": ["alice"], "admins": ["cmc"]}})
        f = gitbay_sim.Forge(json.loads(json.dumps(doc)))
        self.assertEqual(f.next_hook_id, 6)
        dumped = f.dump(f.now)
        self.assertEqual(dumped["repos"][0]["webhooks"], [
            {"id": 3, "url": "http://h/a", "events": "*", "active": True, "secret": "s"},
            {"id": 5, "url": "http://h/b", "events": "push", "active": False}])
        self.assertEqual(dumped["repos"][0]["admins"], ["alice"])
        self.assertEqual(dumped["orgs"]["acme"]["admins"], ["cmc"])
        self.assertEqual(gitbay_sim.Forge(json.loads(json.dumps(dumped))).dump(f.now), dumped)
        self.assertNotIn("webhooks", gitbay_sim.Forge(forge([app_repo()])).dump(f.now)["repos"][0])

    def test_bad_webhook_keys_are_refused(self):
        import gitbay_sim
        for repos in ([app_repo(webhooks=[{"url": "http://h/"}])], [app_repo(webhooks=[{"id": 1}])],
                      [app_repo(webhooks=[{"id": 1, "url": "http://h/", "active": "yes"}])],
                      [app_repo(webhooks=[{"id": 1, "url": "http://h/"}]),
                       dict(app_repo(), path="krz/b", webhooks=[{"id": 1, "url": "http://h/"}])],
                      [app_repo(admins="alice")]):
            with self.assertRaises(gitbay_sim.StateError):
                gitbay_sim.Forge(forge(repos))
        with self.assertRaises(gitbay_sim.StateError):
            gitbay_sim.Forge(forge([app_repo()], orgs={"krz": {"admins": "alice"}}))


class WebhookRegistryTests(unittest.TestCase):
    """The simulator's `webhook` commands against gitbay's registry as the bot records it
    (Tests/GitbayKitTests/Fixtures/gitbay-registry.json, from internal/control/webhook.go)."""

    def test_the_simulated_commands_match_the_registry(self):
        import gitbay_sim
        path = os.path.join(HERE, "..", "GitbayKitTests", "Fixtures", "gitbay-registry.json")
        with open(path, encoding="utf-8") as f:
            registry = json.load(f)
        known = set(registry["known_paths"])
        for spec_path in gitbay_sim.SPECS:
            self.assertIn(" ".join(spec_path), known)
        entries = {c["path"]: c for c in registry["commands"] if c["path"].startswith("webhook ")}
        self.assertEqual(sorted(entries), ["webhook add", "webhook deliveries", "webhook list", "webhook redeliver",
                                           "webhook remove"])
        for name, entry in entries.items():
            spec = gitbay_sim.SPECS[tuple(name.split())]
            self.assertEqual(entry["read_only"], spec.read_only, name)
            self.assertEqual(entry["reads_stdin"], spec.reads_stdin, name)
            self.assertEqual(entry["parser"], spec.parser, name)
            self.assertEqual(sorted(f["name"] for f in entry["flags"]), sorted(spec.values + spec.multi + spec.bools),
                             name)
            self.assertTrue(all(f["takes_value"] for f in entry["flags"]), name)
            self.assertEqual(entry["positional_count"]["max"], spec.pos[1], name)
            self.assertTrue(spec.usage.startswith(name + " "), name)


def thread_repo(path="krz/app", **extra):
    """A repository with one issue and one MR, each with a person's comment and a system entry."""
    r = {"path": path, "default_branch": "main", "branches": {"main": SHA_A, "feat-1": SHA_B},
         "issues": [{"number": 1, "title": "a bug", "state": "open", "author": "alice",
                     "created_at": "2026-11-01T00:00:00.000Z", "updated_at": "2026-11-02T00:00:00.000Z",
                     "comments": [{"author": "alice", "body": "first", "created_at": "2026-11-01T01:00:00.000Z"},
                                  {"author": "system", "kind": "system", "body": "referenced",
                                   "created_at": "2026-11-01T02:00:00.000Z"}]}],
         "merge_requests": [{"number": 1, "title": "fix", "state": "open", "author": "alice", "source": "feat-1",
                             "target_ref": "main", "head_sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z",
                             "comments": [{"author": "cmc", "body": "lgtm",
                                           "created_at": "2026-11-01T03:00:00.000Z"},
                                          {"author": "system", "kind": "system", "body": "cmc queued",
                                           "created_at": "2026-11-01T04:00:00.000Z"}]}]}
    r.update(extra)
    return r


class CommentIdTests(StateSim):
    """Comment ids: the row id of store `issue_comments` / `mr_comments` (store/reactions.go
    reactionTables), one counter per table forge-wide; control/issue.go runIssueShow and
    control/mr.go runMRShow emit it on each comment."""

    def ids(self, noun, repo, n):
        return [c["id"] for c in self.sim.data(noun, "show", repo, str(n)).get("comments", [])]

    def test_ids_count_per_table_across_the_forge_and_new_comments_take_the_next(self):
        second = thread_repo("krz/lib")
        second["issues"][0]["comments"][0]["id"] = 9
        self.start(forge([thread_repo(), second]))
        # Comments without an id are numbered in file order after the highest given (9).
        self.assertEqual(self.ids("issue", "krz/app", 1), [10, 11])
        self.assertEqual(self.ids("issue", "krz/lib", 1), [9, 12])
        self.assertEqual(self.ids("mr", "krz/app", 1), [1, 2])  # MR comments count apart
        self.assertEqual(self.ids("mr", "krz/lib", 1), [3, 4])
        self.ok("issue", "comment", "krz/app", "1", "--message", "again")
        self.ok("mr", "comment", "krz/app", "1", "--message", "again")
        self.ok("mr", "merge", "krz/lib", "1", "--when-ready", token=ALICE)  # merges at once: no comment
        self.assertEqual(self.ids("issue", "krz/app", 1), [10, 11, 13])
        self.assertEqual(self.ids("mr", "krz/app", 1), [1, 2, 5])

    def test_system_comments_take_ids_too(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready")
        self.ok("mr", "merge", "krz/app", "2", "--cancel")
        self.assertEqual([(c["id"], c["author"]) for c in self.mr("krz/app", 2)["comments"]],
                         [(1, "system"), (2, "system")])

    def test_state_write_back_keeps_the_ids(self):
        self.start(forge([thread_repo()]))
        self.ok("issue", "comment", "krz/app", "1", "--message", "again")
        _, _, body = self.sim.raw("GET", "/_sim/state")
        state = json.loads(body)
        self.assertEqual([c["id"] for c in state["repos"][0]["issues"][0]["comments"]], [1, 2, 3])
        self.sim.control(state=state)
        self.ok("issue", "comment", "krz/app", "1", "--message", "once more")
        self.assertEqual(self.ids("issue", "krz/app", 1), [1, 2, 3, 4])


class ReactionTests(StateSim):
    """control/react.go runReact and store/reactions.go (ParseReaction, ReactionTarget,
    SetReaction, ReactionCounts); `show` carries ReactionOut lists (control/issue.go runIssueShow)."""

    def test_replies_name_the_reaction_the_comment_and_a_removal(self):
        self.start(forge([thread_repo()]))
        self.assertEqual(self.ok("issue", "react", "krz/app", "1", "+1"), {"reaction": "+1"})
        self.assertEqual(self.ok("issue", "react", "krz/app", "1", "--comment", "1", "hooray"),
                         {"reaction": "hooray", "comment": 1})
        self.assertEqual(self.ok("issue", "react", "krz/app", "1", "--remove", "+1"),
                         {"reaction": "+1", "removed": True})
        self.assertEqual(self.ok("mr", "react", "krz/app", "1", "--comment", "1", "eyes", "--remove"),
                         {"reaction": "eyes", "comment": 1, "removed": True})

    def test_an_emoji_is_stored_as_its_name(self):
        self.start(forge([thread_repo()]))
        for given, name in (("\U0001F44D", "+1"), ("\u2764\ufe0f", "heart"), ("\u2764", "heart"),
                            ("\U0001F440", "eyes"), ("-1", "-1")):
            self.assertEqual(self.ok("issue", "react", "krz/app", "1", given), {"reaction": name})
        self.assertEqual(self.sim.data("issue", "show", "krz/app", "1")["reactions"], [
            {"reaction": "+1", "count": 1, "me": True}, {"reaction": "-1", "count": 1, "me": True},
            {"reaction": "heart", "count": 1, "me": True}, {"reaction": "eyes", "count": 1, "me": True}])

    def test_minus_one_is_a_positional_not_a_flag(self):
        # control/flags.go parseFlags: only a word starting with `--` is a flag.
        self.start(forge([thread_repo()]))
        self.assertEqual(self.ok("mr", "react", "krz/app", "1", "-1"), {"reaction": "-1"})
        self.assertEqual(self.ok("mr", "react", "krz/app", "1", "--comment", "1", "-1"),
                         {"reaction": "-1", "comment": 1})

    def test_show_counts_in_display_order_and_me_is_the_viewer(self):
        self.start(forge([thread_repo()]))
        self.ok("issue", "react", "krz/app", "1", "rocket")
        self.ok("issue", "react", "krz/app", "1", "rocket", token=ALICE)
        self.ok("issue", "react", "krz/app", "1", "laugh", token=ALICE)
        self.ok("issue", "react", "krz/app", "1", "--comment", "1", "+1", token=ALICE)
        mine = self.sim.data("issue", "show", "krz/app", "1")
        self.assertEqual(mine["reactions"], [{"reaction": "laugh", "count": 1, "me": False},
                                             {"reaction": "rocket", "count": 2, "me": True}])
        self.assertEqual(mine["comments"][0]["reactions"], [{"reaction": "+1", "count": 1, "me": False}])
        self.assertNotIn("reactions", mine["comments"][1])
        _, _, env = self.sim.get("issue", "show", "krz/app", "1", token=ALICE)
        self.assertEqual(env["data"]["reactions"], [{"reaction": "laugh", "count": 1, "me": True},
                                                    {"reaction": "rocket", "count": 2, "me": True}])
        self.assertEqual(env["data"]["comments"][0]["reactions"], [{"reaction": "+1", "count": 1, "me": True}])
        self.assertNotIn("reactions", self.mr("krz/app", 1))

    def test_reacting_twice_and_removing_what_is_not_there_both_succeed(self):
        self.start(forge([thread_repo()]))
        self.ok("mr", "react", "krz/app", "1", "heart")
        self.ok("mr", "react", "krz/app", "1", "heart")
        self.assertEqual(self.mr("krz/app", 1)["reactions"], [{"reaction": "heart", "count": 1, "me": True}])
        self.ok("mr", "react", "krz/app", "1", "--remove", "heart")
        self.ok("mr", "react", "krz/app", "1", "--remove", "heart")
        self.assertNotIn("reactions", self.mr("krz/app", 1))

    def test_a_reaction_is_no_event_and_moves_no_updated_at(self):
        self.start(forge([thread_repo(webhooks=[{"id": 1, "url": "http://127.0.0.1:9/"}])]))
        self.sim.control(deliveries_paused=True)
        before = self.query_updated_at("repo:krz/app is:issue", 1), self.query_updated_at("repo:krz/app is:mr", 1)
        self.ok("issue", "react", "krz/app", "1", "+1")
        self.ok("issue", "react", "krz/app", "1", "--comment", "1", "+1")
        self.ok("mr", "react", "krz/app", "1", "rocket")
        self.assertEqual(self.feed(), [])
        _, _, env = self.sim.get("webhook", "deliveries", "krz/app")
        self.assertEqual(env["data"], [])
        self.assertEqual((self.query_updated_at("repo:krz/app is:issue", 1),
                          self.query_updated_at("repo:krz/app is:mr", 1)), before)

    def test_refusals_in_gitbays_order(self):
        self.start(forge([thread_repo(), thread_repo("krz/old", archived=True),
                          thread_repo("cmc/secret", visibility="private", access=["cmc"], admins=["cmc"])]))
        cases = [
            (("issue", "react", "krz/app", "1"), 2, "usage: issue react"),
            (("issue", "react", "krz/app", "1", "+1", "extra"), 2, 'unexpected argument "extra"'),
            (("issue", "react", "krz/app", "1", "--emoji", "+1"), 2, 'unknown flag "--emoji"'),
            (("issue", "react", "krz/nope", "1", "nope"), 3, "repository krz/nope not found"),
            (("issue", "react", "cmc/secret", "1", "+1"), 3, "repository cmc/secret not found"),
            (("issue", "react", "krz/app", "x", "+1"), 2, 'bad issue number "x"'),
            (("issue", "react", "krz/app", "7", "nope"), 3, "issue #7 not found in krz/app"),
            (("issue", "react", "krz/app", "1", "--comment", "x", "thumbsup"), 2,
             'unknown reaction "thumbsup"; one of +1 -1 laugh hooray confused heart rocket eyes'),
            (("issue", "react", "krz/app", "1", "--comment", "0", "+1"), 2, 'bad comment id "0"'),
            (("issue", "react", "krz/app", "1", "--comment", "x", "+1"), 2, 'bad comment id "x"'),
            (("issue", "react", "krz/old", "1", "--comment", "-3", "+1"), 2, 'bad comment id "-3"'),
            (("issue", "react", "krz/old", "1", "--comment", "99", "+1"), 4, "krz/old is archived"),
            (("issue", "react", "krz/app", "1", "--comment", "2", "+1"), 3, "comment 2 not found on #1"),
            (("issue", "react", "krz/app", "1", "--comment", "3", "+1"), 3, "comment 3 not found on #1"),
            (("mr", "react", "krz/app", "1", "--comment", "2", "eyes"), 3, "comment 2 not found on !1"),
            (("mr", "react", "krz/app", "1", "--comment", "5", "eyes"), 3, "comment 5 not found on !1"),
            (("mr", "react", "krz/app", "9", "eyes"), 3, "MR !9 not found in krz/app"),
        ]
        for argv, code, message in cases:
            status, exit_code, error = self.refused(*argv)
            self.assertEqual(exit_code, code, (argv, error))
            self.assertIn(message, error, argv)
        # Comment 3 is krz/old's issue comment (ids run forge-wide), so not one of krz/app's #1.
        self.assertEqual(self.refused("issue", "react", "krz/app", "1", "--comment", "3", "+1")[2],
                         "comment 3 not found on #1")
        self.assertEqual(self.feed(), [])

    def test_read_access_is_enough_but_a_read_only_token_is_not(self):
        self.start(forge([thread_repo(access=["cmc"])]))  # alice holds no grant; the repository is public
        self.assertEqual(self.ok("issue", "react", "krz/app", "1", "+1", token=ALICE), {"reaction": "+1"})
        self.assertEqual(self.refused("issue", "react", "krz/app", "1", "+1", token=READ_ONLY)[:2], (403, 4))


class ReactionStateFileTests(unittest.TestCase):
    """The forge-state forms of comment ids and reactions (docs/forge-state.md)."""

    def test_reactions_load_in_both_forms_and_dump_back_as_the_list(self):
        import gitbay_sim
        repo = thread_repo()
        repo["issues"][0]["reactions"] = {"+1": ["alice", BOT], "eyes": ["cmc"]}
        repo["issues"][0]["comments"][0]["reactions"] = [{"reaction": "heart", "count": 3, "me": True,
                                                          "users": ["alice"]}]
        repo["merge_requests"][0]["reactions"] = [{"reaction": "rocket", "count": 2, "me": False}]
        f = gitbay_sim.Forge(json.loads(json.dumps(forge([repo]))))
        dumped = f.dump(f.now)
        issue = dumped["repos"][0]["issues"][0]
        self.assertEqual(issue["reactions"], [{"reaction": "+1", "count": 2, "me": True, "users": ["alice", BOT]},
                                              {"reaction": "eyes", "count": 1, "me": False, "users": ["cmc"]}])
        self.assertEqual(issue["comments"][0]["reactions"],
                         [{"reaction": "heart", "count": 3, "me": True, "users": [BOT, "alice"]}])
        self.assertEqual(dumped["repos"][0]["merge_requests"][0]["reactions"],
                         [{"reaction": "rocket", "count": 2, "me": False, "users": []}])
        self.assertEqual([c["id"] for c in issue["comments"]], [1, 2])
        self.assertEqual(gitbay_sim.Forge(json.loads(json.dumps(dumped))).dump(f.now), dumped)
        shown = gitbay_sim.issue_show(f.repos[0]["issues"][0], "alice")
        self.assertEqual(shown["reactions"], [{"reaction": "+1", "count": 2, "me": True},
                                              {"reaction": "eyes", "count": 1, "me": False}])
        self.assertEqual(shown["comments"][0]["reactions"], [{"reaction": "heart", "count": 3, "me": True}])

    def test_bad_ids_and_reactions_are_refused(self):
        import gitbay_sim

        def with_comment(**c):
            repo = thread_repo()
            repo["issues"][0]["comments"][0].update(c)
            return [repo]

        twice = thread_repo()
        twice["issues"][0]["comments"][0]["id"] = 4
        twice["issues"][0]["comments"][1]["id"] = 4
        other = thread_repo("krz/lib")
        other["issues"][0]["comments"][0]["id"] = 4
        mine = thread_repo()
        mine["issues"][0]["comments"][0]["id"] = 4
        for repos in (with_comment(id=0), with_comment(id="3"), with_comment(id=True), [twice], [mine, other],
                      with_comment(reactions={"thumbsup": ["alice"]}), with_comment(reactions={"+1": "alice"}),
                      with_comment(reactions={"+1": ["alice", "alice"]}),
                      with_comment(reactions=[{"reaction": "+1", "count": 1, "users": ["alice", "cmc"]}]),
                      with_comment(reactions=[{"reaction": "+1", "me": False, "users": [BOT]}]),
                      with_comment(reactions=[{"reaction": "\U0001F44D"}]), with_comment(reactions="+1")):
            with self.assertRaises(gitbay_sim.StateError, msg=repr(repos[0]["issues"][0]["comments"][0])):
                gitbay_sim.Forge(forge(repos))
        # The same id in the issue table and the MR table is two rows, not a clash.
        both = thread_repo()
        both["issues"][0]["comments"][0]["id"] = 4
        both["merge_requests"][0]["comments"][0]["id"] = 4
        gitbay_sim.Forge(forge([both]))


class AccessListTests(StateSim):
    """`repo access list` (control/repo.go runAccessList over store/repos.go EffectiveAccess):
    admin only, [{user, role, source}] by username."""

    def test_each_account_with_its_highest_role_and_where_it_comes_from(self):
        org_repo = dict(app_repo(), path="acme/lib", access=[
            "alice", {"user": "erin", "role": "read"}, {"user": "erin", "role": "write", "team": "core"},
            {"user": "frank", "role": "read", "team": "docs"}, {"user": "dave", "role": "read"}], admins=[BOT])
        self.start(forge([org_repo, dict(app_repo(), access=[{"user": "alice", "role": "read"}])],
                         orgs={"acme": {"members": ["dave", "gus"], "admins": ["cmc"], "members_role": "read"}}))
        self.assertEqual(self.sim.data("repo", "access", "list", "acme/lib"), [
            {"user": "alice", "role": "write", "source": "direct"},  # a plain username is a write grant
            {"user": "cmc", "role": "admin", "source": "org admin"},
            {"user": "dave", "role": "read", "source": "direct"},  # a tie keeps the first source
            {"user": "erin", "role": "write", "source": "team core"},
            {"user": "frank", "role": "read", "source": "team docs"},
            {"user": "gus", "role": "read", "source": "org member"},
            {"user": BOT, "role": "admin", "source": "direct"}])
        self.assertEqual(self.sim.data("repo", "access", "list", "krz/app"), [
            {"user": "alice", "role": "read", "source": "direct"},
            {"user": "krz", "role": "admin", "source": "owner"},
            {"user": BOT, "role": "admin", "source": "direct"}])

    def test_only_an_admin_may_list(self):
        self.start(forge([app_repo(access=["alice"]), dict(app_repo(), path="krz/mine",
                                                            access=[{"user": "alice", "role": "admin"}]),
                          dict(app_repo(), path="krz/secret", visibility="private", access=[], admins=[])]))
        self.assertEqual(self.refused("repo", "access", "list", "krz/app", token=ALICE),
                         (403, 4, "permission denied on krz/app; ask its owner for access"))
        self.assertEqual(self.refused("repo", "access", "list", "krz/secret", token=ALICE),
                         (404, 3, "repository krz/secret not found"))
        self.assertEqual(self.refused("repo", "access", "list", "krz/none"), (404, 3, "repository krz/none not found"))
        self.assertEqual(self.refused("repo", "access", "list")[:2], (400, 2))
        self.assertEqual(self.refused("repo", "access", "list", "krz/app", "extra")[:2], (400, 2))
        _, _, env = self.sim.get("repo", "access", "list", "krz/mine", token=ALICE)  # an admin grant
        self.assertEqual(env["exit_code"], 0, env)
        self.assertIn({"user": "alice", "role": "admin", "source": "direct"}, env["data"])

    def test_a_bad_grant_is_refused(self):
        import gitbay_sim
        for access in ([{"user": "alice"}], [{"user": "alice", "role": "owner"}], [{"role": "read"}], [""],
                       [{"user": "alice", "role": "read", "team": ""}], [{"user": "a", "role": "read", "x": 1}]):
            with self.assertRaises(gitbay_sim.StateError, msg=repr(access)):
                gitbay_sim.Forge(forge([app_repo(access=access)]))
        with self.assertRaises(gitbay_sim.StateError):
            gitbay_sim.Forge(forge([app_repo()], orgs={"krz": {"members": [], "members_role": "admin"}}))
        doc = forge([app_repo(access=["cmc", {"user": "alice", "role": "read", "team": "core"}])])
        f = gitbay_sim.Forge(json.loads(json.dumps(doc)))
        self.assertEqual(f.dump(f.now)["repos"][0]["access"], doc["repos"][0]["access"])
        self.assertTrue(f.reachable("alice", f.repos[0]))  # a read grant reaches the repository


class QueueCredentialTests(StateSim):
    """control/mergequeue.go queueMerge (an expiring credential cannot queue, #257) and
    attemptLocked with queueCredentialLapsed (a revoked, expired or narrowed token dequeues)."""

    REFUSAL = ("--when-ready merges later on the authority of the credential it is queued with, and this one "
               "expires; queue it with a key or token without an expiry, or from the web")

    def test_a_token_with_an_expiry_cannot_queue(self):
        self.start(forge([app_repo(), dict(app_repo(), path="krz/old", archived=True)]),
                   "--token-expires", "2027-06-01T00:00:00Z")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "2", "--when-ready"), (403, 4, self.REFUSAL))
        shown = self.mr("krz/app", 2)
        self.assertNotIn("queued", shown)
        self.assertNotIn("comments", shown)
        # Archived (4) and a state other than open (2) come first.
        self.assertIn("archived", self.refused("mr", "merge", "krz/old", "2", "--when-ready")[2])
        self.ok("mr", "close", "krz/app", "2")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "2", "--when-ready")[:2], (400, 2))
        # Another account's token, without an expiry, queues (and here merges at once).
        self.assertEqual(self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)["strategy"], "ff")

    def test_the_expiry_is_set_by_control_and_an_expired_token_is_refused(self):
        self.start(forge([app_repo()]))
        reply = self.sim.control(token_expires="2026-11-29T12:00:10Z")
        self.assertEqual(reply["token_expires"], "2026-11-29T12:00:10.000Z")
        self.assertEqual(self.refused("mr", "merge", "krz/app", "2", "--when-ready")[:2], (403, 4))
        self.sim.control(advance_seconds=10)
        status, _, env = self.sim.get("whoami")
        self.assertEqual((status, env["error"]), (401, "invalid or expired token"))
        self.assertEqual(self.sim.control(token_expires=None)["token_expires"], None)
        self.assertEqual(self.ok("mr", "merge", "krz/app", "2", "--when-ready")["queued"], True)

    def test_revoking_the_token_dequeues_at_the_next_attempt(self):
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready")  # a draft: stays queued
        self.sim.control(revoke=True)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-2", "sha": SHA_E, "actor": "alice"})
        self.sim.control(revoke=False)
        shown = self.mr("krz/app", 2)
        self.assertNotIn("queued", shown)
        self.assertEqual(shown["comments"][-1]["body"],
                         "dequeued the merge queued by triage-bot: the token it was queued with was revoked")

    def test_a_narrowed_scope_dequeues_and_the_files_own_queue_rests_on_the_account(self):
        queued = {"by": "alice", "queued_at": "2026-11-28T00:00:00.000Z"}
        repo = app_repo()
        repo["merge_requests"][0]["queued"] = queued
        repo["merge_requests"][0]["draft"] = True
        self.start(forge([repo]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready")
        self.sim.control(read_only=True)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-2", "sha": SHA_E, "actor": "alice"})
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_D, "actor": "alice"})
        self.sim.control(read_only=False)
        self.assertEqual(self.mr("krz/app", 2)["comments"][-1]["body"],
                         "dequeued the merge queued by triage-bot: the token it was queued with no longer has full "
                         "scope")
        self.assertEqual(self.mr("krz/app", 1)["queued"]["by"], "alice")  # still queued: no credential to lapse


class RevisionTests(StateSim):
    """`mr revisions` (control/mr.go runMRRevisions, mrRevisions, RevisionOut at 67d2c52b) over the
    mr_heads rows store/mrs.go CreateMR and UpdateMRHead write, the latter from
    control/refsupdated.go RefsUpdated for every push to an MR's source branch."""

    def revisions(self, n=1, repo="krz/app"):
        return self.ok("mr", "revisions", repo, str(n))

    def test_the_opening_head_is_the_first_revision_and_a_read_token_may_ask(self):
        self.start(forge([app_repo()]))
        opening = [{"n": 1, "sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z", "current": True}]
        self.assertEqual(self.revisions(), opening)
        status, _, env = self.sim.get("mr", "revisions", "krz/app", "1", token=READ_ONLY)  # ReadOnly: true
        self.assertEqual((status, env["data"]), (200, opening))

    def test_every_push_to_the_source_branch_records_a_revision_whoever_pushes(self):
        self.start(forge([app_repo(settings={"require_approvals": 1})]))
        self.sim.control(advance_seconds=60, push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E,
                                                   "actor": "alice"})
        self.sim.control(advance_seconds=0.25, push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_D,
                                                     "actor": "cmc", "forced": True})
        self.assertEqual(self.revisions(), [
            {"n": 1, "sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z"},
            {"n": 2, "sha": SHA_E, "base_sha": SHA_A, "created_at": "2026-11-29T12:01:00.000Z"},
            {"n": 3, "sha": SHA_D, "base_sha": SHA_A, "created_at": "2026-11-29T12:01:00.250Z", "current": True}])
        self.assertEqual(self.mr("krz/app", 1)["head_sha"], SHA_D)
        # Neither the pusher nor a push shows anywhere else the API reaches: no event in the feed.
        self.assertEqual(self.feed(), [])

    def test_an_unchanged_head_adds_nothing_and_a_head_pushed_back_adds_a_row(self):
        # The file's branch tip differs from the MR's head: pushing the head moves the branch (a hook
        # runs) but not the head, and UpdateMRHead skips a sha equal to the newest row.
        self.start(forge([app_repo(branches={"main": SHA_A, "feat-1": SHA_D})]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_B})
        self.assertEqual([r["sha"] for r in self.revisions()], [SHA_B])
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_B, "base_sha": ""})
        revisions = self.revisions()
        self.assertEqual([(r["n"], r["sha"], r.get("current")) for r in revisions],
                         [(1, SHA_B, True), (2, SHA_E, None), (3, SHA_B, True)])  # current is by sha
        self.assertNotIn("base_sha", revisions[2])

    def test_a_deleted_branch_records_none_and_pushing_it_again_does(self):
        self.start(forge([app_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "delete": True})
        self.assertEqual(self.mr("krz/app", 1)["state"], "source_gone")
        self.assertEqual([r["sha"] for r in self.revisions()], [SHA_B])
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E})
        self.assertEqual(self.mr("krz/app", 1)["state"], "open")
        self.assertEqual([r["sha"] for r in self.revisions()], [SHA_B, SHA_E])

    def test_refusals_in_mrrefs_order(self):
        self.start(forge([app_repo(), dict(app_repo(), path="krz/old", archived=True),
                          dict(app_repo(), path="krz/secret", visibility="private", access=[BOT])]))
        for argv, want in [
                (("krz/app",), (400, 2)),
                (("krz/none", "1"), (404, 3, "repository krz/none not found")),
                (("krz/app", "one"), (400, 2, 'bad MR number "one"')),
                (("krz/app", "9"), (404, 3, "MR !9 not found in krz/app")),
                (("krz/none", "1", "--limit", "5"), (404, 3, "repository krz/none not found")),  # looked up first
                (("krz/app", "1", "--limit", "5"), (400, 2))]:
            got = self.refused("mr", "revisions", *argv)
            self.assertEqual(got[:len(want)], want, argv)
        self.assertEqual(self.refused("mr", "revisions", "krz/secret", "1", token=ALICE),
                         (404, 3, "repository krz/secret not found"))
        self.assertEqual(len(self.revisions(repo="krz/old")), 1)  # a read: an archived repository answers
        self.assertEqual(len(self.revisions(repo="krz/secret")), 1)
        self.ok("mr", "merge", "krz/app", "1")
        self.assertEqual(self.revisions(), [{"n": 1, "sha": SHA_B, "created_at": "2026-11-01T00:00:00.000Z",
                                             "current": True}])  # a merged MR keeps its history


class AccessRevokeTests(StateSim):
    """`repo access revoke` (control/repo.go runAccessRevoke at 02a67948; store/repos.go RevokeAccess)
    and what losing write does to a queued merge (control/mergequeue.go attemptLocked,
    QueuedMergePushed at c1f3c195)."""

    def access(self, repo="krz/app"):
        return self.sim.data("repo", "access", "list", repo)

    def test_revoke_takes_the_direct_grant_only_and_answers_the_user(self):
        repo = app_repo(access=["alice", {"user": "cmc", "role": "read"},
                                {"user": "cmc", "role": "write", "team": "core"}], admins=[BOT])
        self.start(forge([repo, dict(app_repo(), path="krz/old", archived=True, access=["alice"], admins=[BOT])]))
        self.assertEqual(self.ok("repo", "access", "revoke", "krz/app", "alice"), {"revoked": "alice"})
        self.assertNotIn("alice", [e["user"] for e in self.access()])
        self.assertEqual(self.ok("repo", "access", "revoke", "krz/app", "cmc"), {"revoked": "cmc"})
        self.assertIn({"user": "cmc", "role": "write", "source": "team core"}, self.access())  # a team grant stays
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/app", "alice"),
                         (404, 3, "alice has no grant on krz/app"))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/app", "cmc"),
                         (404, 3, "cmc has no grant on krz/app"))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/app", "nobody"),
                         (404, 3, 'no such user "nobody"'))
        self.assertEqual(self.ok("repo", "access", "revoke", "krz/old", "alice"), {"revoked": "alice"})  # archived
        self.assertEqual(self.feed(), [])  # no event
        self.assertEqual([(j["argv"][:3], j["applied"]) for j in self.sim.journal_lines()][0],
                         (["repo", "access", "revoke"], True))

    def test_refusals_in_order(self):
        self.start(forge([app_repo(access=["alice"], admins=[BOT]),
                          dict(app_repo(), path="krz/secret", visibility="private", access=[BOT])]))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/none")[:2], (400, 2))  # count first
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/none", "alice", "x")[:2], (400, 2))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/none", "alice"),
                         (404, 3, "repository krz/none not found"))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/secret", "alice", token=ALICE),
                         (404, 3, "repository krz/secret not found"))
        self.assertEqual(self.refused("repo", "access", "revoke", "krz/app", "nobody", token=ALICE),
                         (403, 4, "permission denied on krz/app; ask its owner for access"))
        status, _, env = self.sim.get("repo", "access", "revoke", "krz/app", "alice")  # a write: never a GET
        self.assertEqual(status, 400, env)

    def test_a_queuer_who_lost_write_is_dequeued_at_the_next_attempt(self):
        self.start(forge([app_repo(access=[BOT, "alice"])]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready", token=ALICE)  # a draft: stays queued
        self.ok("repo", "access", "revoke", "krz/app", "alice")
        self.assertEqual(self.mr("krz/app", 2)["queued"]["by"], "alice")  # nothing tries the queue at a revoke
        self.ok("mr", "ready", "krz/app", "2")
        shown = self.mr("krz/app", 2)
        self.assertEqual((shown["state"], shown.get("queued")), ("open", None))
        self.assertEqual(shown["comments"][-1]["body"],
                         "dequeued the merge queued by alice: alice no longer has write access to krz/app")
        self.assertEqual(self.kinds(), ["mr.draft"])  # a dequeue records no event

    def test_a_push_by_someone_who_cannot_write_dequeues_and_still_records_the_revision(self):
        self.start(forge([app_repo(access=[BOT, "alice"], settings={"require_approvals": 1})]))
        self.ok("mr", "merge", "krz/app", "1", "--when-ready", token=ALICE)
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E, "actor": "alice"})
        self.assertEqual(self.mr("krz/app", 1)["queued"]["by"], "alice")  # a writer's push: tried, still waits
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_D, "actor": "cmc"})
        shown = self.mr("krz/app", 1)
        self.assertNotIn("queued", shown)
        self.assertEqual(shown["comments"][-1]["body"],
                         "dequeued the merge queued by alice: cmc pushed and cannot merge into krz/app")
        self.assertEqual([r["sha"] for r in self.ok("mr", "revisions", "krz/app", "1")], [SHA_B, SHA_E, SHA_D])

    def test_revoking_me_where_the_file_gave_no_grants_writes_them_down(self):
        # guess: the implicit `access: [me]` and `admins: [me]` are grants, and a revoke writes the
        # lists without `me`; from then on the repository follows its roles for writes too.
        self.start(forge([app_repo()]))
        self.assertEqual(self.ok("repo", "access", "revoke", "krz/app", BOT), {"revoked": BOT})
        state = json.loads(self.sim.raw("GET", "/_sim/state")[2])["repos"][0]
        self.assertEqual((state["access"], state["admins"]), ([], []))
        self.assertEqual(self.refused("repo", "access", "list", "krz/app")[:2], (403, 4))


class WireShapeTests(StateSim):
    """Shapes gitbay puts on the wire that the bot must read as they are (issue 40)."""

    def test_comments_carry_no_kind_and_the_author_system_marks_a_system_entry(self):
        # control/thread.go (67d2c52b) commentOut: `Kind string json:"-"`; control/issue.go
        # runIssueShow and control/mr.go runMRShow emit commentOut as it is.
        self.start(forge([thread_repo()]))
        for noun in ("issue", "mr"):
            comments = self.sim.data(noun, "show", "krz/app", "1")["comments"]
            for c in comments:
                self.assertLessEqual(set(c), {"id", "author", "body", "body_format", "created_at", "reactions"},
                                     (noun, c))
            self.assertEqual([c["author"] == "system" for c in comments], [False, True], noun)
        # A system entry the server writes itself (store AddMRSystemComment) is shown the same way.
        self.start(forge([app_repo()]))
        self.ok("mr", "merge", "krz/app", "2", "--when-ready")
        entry = self.mr("krz/app", 2)["comments"][-1]
        self.assertEqual(entry["author"], "system")
        self.assertNotIn("kind", entry)

    def test_a_reaction_spends_from_the_api_write_bucket(self):
        # httpd/apilimit.go allow: a write draws on both buckets; `issue react` is registered
        # without ReadOnly (control/react.go init), so it is a write. At 10 requests a minute the
        # write bucket holds one.
        self.start(forge([thread_repo()]), "--api-rate", "10")
        self.ok("issue", "react", "krz/app", "1", "+1")
        status, headers, env = self.sim.post("issue", "react", "krz/app", "1", "eyes")
        self.assertEqual(status, 429, env)
        self.assertIn("Retry-After", headers)
        self.assertEqual(json.loads(self.sim.raw("GET", "/_sim/stats")[2])["writes"], 1)

    def test_a_reaction_spends_from_the_account_write_limit(self):
        # control/ratelimit.go writeLimiter.allow, control.go limitWrites: every command that is
        # not read-only, `issue react` and `mr react` included.
        self.start(forge([thread_repo()]), "--write-rate", "2")
        self.ok("issue", "react", "krz/app", "1", "+1")
        self.ok("mr", "react", "krz/app", "1", "--comment", "1", "eyes")
        status, code, error = self.refused("issue", "react", "krz/app", "1", "heart")
        self.assertEqual((status, code), (403, 4))
        self.assertTrue(error.startswith("too many writes: 2 a minute per account"), error)

    def test_hooks_may_subscribe_to_mr_labeled_and_mr_review_requested(self):
        # control/events.go checkEventNames refuses a kind outside EventKinds, and
        # TestEventKindsAreRecorded (a2d1580d, with migration 0042_mr_review_requests) keeps
        # every recorded kind in it: control/mr.go runMRLabel records mr.labeled,
        # runMRReviewRequest mr.review_requested.
        self.start(forge([app_repo()]), "--webhook-allow-local")
        self.ok("webhook", "add", "krz/app", "http://127.0.0.1:9/gitbay", "--events",
                "mr.labeled,mr.review_requested")
        self.assertEqual(self.sim.data("webhook", "list", "krz/app")[0]["events"], "mr.labeled,mr.review_requested")
        self.ok("mr", "label", "krz/app", "1", "--add", "bug")
        self.assertEqual(self.feed()[0]["kind"], "mr.labeled")
        deliveries = self.sim.data("webhook", "deliveries", "krz/app")
        self.assertEqual([d["event"] for d in deliveries], ["mr.labeled"])


# git's own object ids for the files of files_repo(), as `git hash-object` and `git ls-tree` give them
# (git 2.39): "a: 1\n", "x\0y", "hi\n", the link target "d/f", and the trees .gitbay and d.
BOT_YML_BLOB, BIN_BLOB = "a8926a52d8dcba5c4386945476ab6a2ad008afd4", "d5d0b8b4c4c9e936890870f6799cfbb5ba984470"
LINK_BLOB, GITBAY_TREE = "c3828df67208a773b49a92d56e9cf58d00a081ee", "3838c85e00b146fa1de8ac02636d204ed0e5ed1a"
D_TREE = "df55a7dce59d040dc7819c1e241082965a80ebd9"


def files_repo(**extra):
    """app_repo() whose main (SHA_A) holds .gitbay/bot.yml, a binary file, d/f, a symbolic link, an
    empty file and a Latin-1 text; feat-1 (SHA_B) changes bot.yml; tag v1 is main."""
    base = {".gitbay/bot.yml": "a: 1\n", "bin": {"base64": "eAB5"}, "d/f": "hi\n",
            "link": {"content": "d/f", "mode": "120000"}, "empty": "", "latin": {"base64": "Y2Fm6Qo="}}
    commits = {SHA_A: {"files": base},
               SHA_B: {"parents": [SHA_A], "files": dict(base, **{".gitbay/bot.yml": "a: 2\n"})}}
    return app_repo(commits=commits, tags={"v1": SHA_A}, **extra)


class RepoFileTests(StateSim):
    """`repo tree` and `repo cat` (internal/control/read.go runRepoTree, runRepoCat, readArgs,
    cleanRepoPath; internal/gitutil/read.go ListTree, ReadBlob, ResolveRef, IsBinary)."""

    def test_tree_lists_one_level_with_gits_object_ids(self):
        self.start(forge([files_repo()]))
        root = self.sim.data("repo", "tree", "krz/app")
        self.assertEqual((root["path"], root["ref"], root["dir"]), ("krz/app", "main", ""))
        self.assertEqual([(e["name"], e["type"], e["mode"]) for e in root["entries"]], [
            (".gitbay", "tree", "040000"), ("bin", "blob", "100644"), ("d", "tree", "040000"),
            ("empty", "blob", "100644"), ("latin", "blob", "100644"), ("link", "blob", "120000")])
        by_name = {e["name"]: e for e in root["entries"]}
        self.assertEqual(by_name[".gitbay"], {"name": ".gitbay", "type": "tree", "mode": "040000", "sha": GITBAY_TREE})
        self.assertEqual(by_name["d"]["sha"], D_TREE)
        self.assertEqual((by_name["bin"]["sha"], by_name["bin"]["size"]), (BIN_BLOB, 3))
        self.assertEqual(by_name["link"]["sha"], LINK_BLOB)
        self.assertNotIn("size", by_name["empty"])  # size,omitempty: an empty blob has none
        sub = self.sim.data("repo", "tree", "krz/app", ".gitbay")
        self.assertEqual(sub, {"path": "krz/app", "ref": "main", "dir": ".gitbay", "entries": [
            {"name": "bot.yml", "type": "blob", "mode": "100644", "sha": BOT_YML_BLOB, "size": 5}]})
        # The blob id tells a changed file without reading it.
        other = self.sim.data("repo", "tree", "krz/app", ".gitbay", "--ref", "feat-1")["entries"][0]
        self.assertNotEqual(other["sha"], BOT_YML_BLOB)
        self.assertEqual(self.sim.data("repo", "tree", "krz/app", ".gitbay", "--ref", "v1")["entries"][0]["sha"],
                         BOT_YML_BLOB)

    def test_cat_answers_text_binary_empty_and_link(self):
        self.start(forge([files_repo()]))
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml"), {
            "path": "krz/app", "ref": "main", "file": ".gitbay/bot.yml", "size": 5, "binary": False,
            "content": "a: 1\n"})
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "bin"), {
            "path": "krz/app", "ref": "main", "file": "bin", "size": 3, "binary": True, "base64": "eAB5"})
        # content and base64 are both omitempty: an empty file has neither.
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "empty"), {
            "path": "krz/app", "ref": "main", "file": "empty", "size": 0, "binary": False})
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "link")["content"], "d/f")
        # No NUL, so not binary: Go's encoder makes the invalid UTF-8 byte U+FFFD.
        latin = self.sim.data("repo", "cat", "krz/app", "latin")
        self.assertEqual((latin["binary"], latin["size"], latin["content"]), (False, 5, "caf\ufffd\n"))
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml", "--ref", "feat-1")["content"],
                         "a: 2\n")

    def test_a_blob_over_the_limit_comes_back_cut_and_truncated(self):
        # read.go runRepoCat reads MaxBlobBytes + 1 bytes; config.go Default: 100 MiB.
        self.start(forge([files_repo()]), "--max-blob-bytes", "4")
        cut = self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml")
        self.assertEqual((cut["size"], cut["content"], cut["truncated"]), (4, "a: 1", True))
        at_limit = self.sim.data("repo", "cat", "krz/app", "bin")
        self.assertEqual((at_limit["size"], at_limit["binary"]), (3, True))
        self.assertNotIn("truncated", at_limit)

    def test_refusals_in_gitbays_order(self):
        repos = [files_repo(), dict(files_repo(), path="krz/private", visibility="private", access=["alice"],
                                    admins=["alice"])]
        self.start(forge(repos))
        cat_usage = "usage: repo cat <owner/name> <path> [--ref <ref>]"
        for argv, status, code, error in [
            (("repo", "cat", "krz/app"), 400, 2, cat_usage),
            (("repo", "cat", "krz/app", "a", "b"), 400, 2, cat_usage),
            (("repo", "tree"), 400, 2, "usage: repo tree <owner/name> [<path>] [--ref <ref>]"),
            (("repo", "cat", "nope/nope", "x", "--x"), 400, 2, 'unknown flag "--x"\n' + cat_usage),
            (("repo", "cat", "krz/app", "x", "--"), 400, 2, 'unknown flag "--"\n' + cat_usage),
            (("repo", "cat", "krz/app", "x", "--ref"), 400, 2, "--ref requires a value"),
            (("repo", "cat", "nope/nope", "../x"), 404, 3, "repository nope/nope not found"),
            (("repo", "cat", "krz/private", "x"), 404, 3, "repository krz/private not found"),
            (("repo", "cat", "krz/app", "../x", "--ref", "nope"), 400, 2, "path must stay inside the repository"),
            (("repo", "cat", "krz/app", "/"), 400, 2, "path must stay inside the repository"),
            (("repo", "tree", "krz/app", "."), 400, 2, "path must stay inside the repository"),
            (("repo", "cat", "krz/app", "nope", "--ref", "nope"), 404, 3, 'no ref "nope" in krz/app'),
            (("repo", "cat", "krz/app", "nope"), 404, 3, 'no such file "nope" in krz/app at main'),
            (("repo", "cat", "krz/app", "d"), 404, 3, 'no such file "d" in krz/app at main'),
            (("repo", "tree", "krz/app", "d/f"), 404, 3, 'no such path "d/f" in krz/app at main'),
            (("repo", "tree", "krz/app", "nope", "--ref", "v1"), 404, 3, 'no such path "nope" in krz/app at v1')]:
            self.assertEqual(self.refused(*argv), (status, code, error), argv)

    def test_paths_are_cleaned_and_refs_resolve_as_git_resolves_them(self):
        self.start(forge([files_repo()]))
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "/.gitbay/./x/../bot.yml/")["file"],
                         ".gitbay/bot.yml")
        self.assertEqual(self.sim.data("repo", "tree", "krz/app", "/")["dir"], "")
        for ref in ("refs/heads/feat-1", SHA_B, SHA_B[:7], "refs/merge-requests/1/head"):
            got = self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml", "--ref", ref)
            self.assertEqual((got["ref"], got["content"]), (ref, "a: 2\n"))
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml", "--ref", "")["ref"], "main")

    def test_an_empty_repository_has_no_default_branch_to_read(self):
        self.start(forge([dict(app_repo(), branches={}, merge_requests=[])]))
        self.assertEqual(self.refused("repo", "tree", "krz/app"), (404, 3, 'no ref "main" in krz/app'))
        self.assertEqual(self.refused("repo", "cat", "krz/app", ".gitbay/bot.yml"),
                         (404, 3, 'no ref "main" in krz/app'))
        self.assertEqual(self.sim.data("repo", "refs", "krz/app"), {"branches": [], "tags": []})

    def test_reads_are_read_only_commands(self):
        self.start(forge([files_repo()]))
        status, _, env = self.sim.get("repo", "cat", "krz/app", "d/f", token=READ_ONLY)
        self.assertEqual((status, env["data"]["content"]), (200, "hi\n"))
        status, _, env = self.sim.get("repo", "tree", "krz/app", "--json", token=READ_ONLY)
        self.assertEqual((status, len(env["data"]["entries"])), (200, 6))
        status, _, env = self.sim.get("repo", "cat", "krz/app", "d/f", token=ALICE)  # any reader
        self.assertEqual(status, 200)


class PushedFileTests(StateSim):
    """A push that changes files (the `push` control standing for git push): the branch moves, the
    files of the new commit are read by `repo tree`/`repo cat`, and gitbay emits what
    control/refsupdated.go RefsUpdated records: one `push` event per ref, {ref, old, new, forced,
    deleted}, no file in it, delivered to webhooks and never in the feed."""

    def test_a_push_changes_the_files_on_its_branch_and_names_none_of_them(self):
        self.start(forge([files_repo()]), "--webhook-allow-local")
        self.sim.control(deliveries_paused=True)
        self.ok("webhook", "add", "krz/app", "http://127.0.0.1:9/hook", "--events", "push")
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": SHA_E, "actor": "alice",
                               "files": {".gitbay/bot.yml": "a: 3\n", "bin": None, "new/x": "x\n"}})
        self.assertEqual(self.sim.data("repo", "refs", "krz/app")["branches"][3], {"name": "main", "sha": SHA_E})
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml")["content"], "a: 3\n")
        self.assertEqual([e["name"] for e in self.sim.data("repo", "tree", "krz/app")["entries"]],
                         [".gitbay", "d", "empty", "latin", "link", "new"])
        # The old commit keeps its files.
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "bin", "--ref", SHA_A)["base64"], "eAB5")
        self.assertEqual(self.feed(), [])
        deliveries = self.sim.data("webhook", "deliveries", "krz/app")
        self.assertEqual([(d["event"], d["status"]) for d in deliveries], [("push", "pending")])
        state = json.loads(self.sim.raw("GET", "/_sim/state")[2])
        self.assertEqual(state["repos"][0]["commits"][SHA_E]["parents"], [SHA_A])

    def test_the_push_event_names_the_ref_and_no_file(self):
        import gitbay_sim
        f = gitbay_sim.Forge(forge([files_repo()]))
        gitbay_sim.push(f, {"repo": "krz/app", "branch": "main", "sha": SHA_E, "actor": "alice",
                            "files": {".gitbay/bot.yml": "a: 3\n"}}, f.now)
        self.assertEqual([(e["kind"], e["actor"], e["data"]) for e in f.events], [
            ("push", "alice", {"ref": "refs/heads/main", "old": SHA_A, "new": SHA_E, "forced": False,
                               "deleted": False})])

    def test_a_push_to_a_merge_requests_branch_moves_its_head_and_files(self):
        self.start(forge([files_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": SHA_E,
                               "files": {".gitbay/bot.yml": "a: 4\n"}})
        self.assertEqual(self.mr("krz/app", 1)["head_sha"], SHA_E)
        for ref in ("feat-1", "refs/merge-requests/1/head", SHA_E[:8]):
            self.assertEqual(self.sim.data("repo", "cat", "krz/app", ".gitbay/bot.yml", "--ref", ref)["content"],
                             "a: 4\n")

    def test_a_new_branch_starts_from_the_default_branch_and_a_push_without_files_changes_none(self):
        self.start(forge([files_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "topic", "sha": SHA_E, "files": {"t": "t\n"}})
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "d/f", "--ref", "topic")["content"], "hi\n")
        self.sim.control(push={"repo": "krz/app", "branch": "topic", "sha": "f" * 40})
        self.assertEqual(self.sim.data("repo", "tree", "krz/app", "--ref", "topic"),
                         dict(self.sim.data("repo", "tree", "krz/app", "--ref", SHA_E), ref="topic"))

    def test_a_bad_push_changes_nothing(self):
        self.start(forge([files_repo()]))
        for push in ({"files": {"nope": None}}, {"files": {"../x": "x"}}, {"files": {"d/f/g": "x"}},
                     {"files": {"x": {"base64": "!"}}}, {"sha": SHA_B, "files": {"x": "x"}}):
            req = dict({"repo": "krz/app", "branch": "main", "sha": SHA_E}, **push)
            status, _, body = self.sim.raw("POST", "/_sim/control", body={"push": req})
            self.assertEqual(status, 400, (push, body))
        self.assertEqual(self.sim.data("repo", "refs", "krz/app")["branches"][3], {"name": "main", "sha": SHA_A})
        self.assertEqual(self.feed(), [])
        state = json.loads(self.sim.raw("GET", "/_sim/state")[2])
        self.assertEqual(sorted(state["repos"][0]["commits"]), [SHA_A, SHA_B])

    def test_a_repository_without_commits_records_none_for_a_push_without_files(self):
        self.start(forge([app_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "feat-3", "sha": SHA_E})
        self.assertNotIn("commits", json.loads(self.sim.raw("GET", "/_sim/state")[2])["repos"][0])


# `git diff --stat --patch` of a real repository holding the two commits of diff_repo() (git 2.39):
# what gitbay's mr diff sends for them.
GIT_DIFF = (
    ' .gitbay/bot.yml |   3 ++-\n'
    ' bin             | Bin 3 -> 0 bytes\n'
    ' d/{f => g}      |   0\n'
    ' e               |   0\n'
    ' n.txt           |   1 +\n'
    ' nonl            |   1 +\n'
    ' 6 files changed, 4 insertions(+), 1 deletion(-)\n'
    '\n'
    'diff --git a/.gitbay/bot.yml b/.gitbay/bot.yml\n'
    'index a8926a5..1378531 100644\n'
    '--- a/.gitbay/bot.yml\n'
    '+++ b/.gitbay/bot.yml\n'
    '@@ -1 +1,2 @@\n'
    '-a: 1\n'
    '+a: 2\n'
    '+b: 1\n'
    'diff --git a/bin b/bin\n'
    'deleted file mode 100644\n'
    'index d5d0b8b..0000000\n'
    'Binary files a/bin and /dev/null differ\n'
    'diff --git a/d/f b/d/g\n'
    'similarity index 100%\n'
    'rename from d/f\n'
    'rename to d/g\n'
    'diff --git a/e b/e\n'
    'new file mode 100644\n'
    'index 0000000..e69de29\n'
    'diff --git a/n.txt b/n.txt\n'
    'new file mode 100644\n'
    'index 0000000..3e75765\n'
    '--- /dev/null\n'
    '+++ b/n.txt\n'
    '@@ -0,0 +1 @@\n'
    '+new\n'
    'diff --git a/nonl b/nonl\n'
    'new file mode 100644\n'
    'index 0000000..fa7af8b\n'
    '--- /dev/null\n'
    '+++ b/nonl\n'
    '@@ -0,0 +1 @@\n'
    '+z\n'
    '\\ No newline at end of file\n'
)


def diff_repo(**extra):
    """krz/app: main (SHA_A) and MR !1 from feat-1 (SHA_B, child of SHA_A) changing a text file,
    deleting a binary one, renaming one, adding an empty one, one with a newline and one without."""
    commits = {SHA_A: {"files": {".gitbay/bot.yml": "a: 1\n", "bin": {"base64": "eAB5"}, "d/f": "hi\n"}},
               SHA_B: {"parents": [SHA_A], "files": {".gitbay/bot.yml": "a: 2\nb: 1\n", "d/g": "hi\n", "e": "",
                                                      "n.txt": "new\n", "nonl": "z"}}}
    r = app_repo(commits=commits, **extra)
    r["merge_requests"] = r["merge_requests"][:1]
    return r


class ChangedFileTests(StateSim):
    """How a merge request's changed files are told: `mr diff` (control/mr.go runMRDiff, 67d2c52b;
    gitutil.Diff, MergeBase), raw text the API puts in `output` (httpd/api.go apiCmd, apiread.go
    apiRead)."""

    def diff(self, *argv, token=TOKEN):
        status, _, env = self.sim.get("mr", "diff", "krz/app", *argv, token=token)
        return status, env

    def test_the_diff_is_raw_text_in_output_as_git_writes_it(self):
        self.start(forge([diff_repo()]))
        status, env = self.diff("1", token=READ_ONLY)
        self.assertEqual((status, sorted(env)), (200, ["exit_code", "output", "protocol_version"]))
        self.assertEqual(env["output"], GIT_DIFF)
        self.assertEqual([ln.split(" b/")[0][len("diff --git a/"):] for ln in env["output"].splitlines()
                          if ln.startswith("diff --git ")], [".gitbay/bot.yml", "bin", "d/f", "e", "n.txt", "nonl"])
        _, _, posted = self.sim.post("mr", "diff", "krz/app", "1", "extra", "words")  # past the second: ignored
        self.assertEqual(posted["output"], GIT_DIFF)

    def test_the_base_is_the_merge_base_so_the_targets_later_changes_are_not_in_it(self):
        self.start(forge([diff_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": SHA_E, "files": {"README": "r\n"}})
        self.assertEqual(self.diff("1")[1]["output"], GIT_DIFF)
        # The same file changed on both sides: still the MR's change against the base.
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": "f" * 40,
                               "files": {".gitbay/bot.yml": "a: 9\n"}})
        self.assertEqual(self.diff("1")[1]["output"], GIT_DIFF)

    def test_a_merged_request_keeps_its_diff_from_the_recorded_base(self):
        self.start(forge([diff_repo()]))
        self.ok("mr", "merge", "krz/app", "1")  # a fast-forward: the live merge base is the head
        self.assertEqual(self.diff("1")[1]["output"], GIT_DIFF)
        self.assertEqual(self.sim.data("repo", "cat", "krz/app", "n.txt")["content"], "new\n")

    def test_a_merge_commit_carries_the_merged_files(self):
        self.start(forge([diff_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": SHA_E, "files": {"README": "r\n"}})
        merged = self.ok("mr", "merge", "krz/app", "1", "--strategy", "merge")
        names = [e["name"] for e in self.sim.data("repo", "tree", "krz/app", "--ref", merged["sha"])["entries"]]
        self.assertEqual(names, [".gitbay", "README", "d", "e", "n.txt", "nonl"])
        self.assertEqual(self.diff("1")[1]["output"], GIT_DIFF)

    def test_no_change_is_an_empty_output(self):
        self.start(forge([diff_repo()]))
        self.sim.control(push={"repo": "krz/app", "branch": "main", "sha": SHA_E, "parent": SHA_B, "files": {}})
        self.sim.control(push={"repo": "krz/app", "branch": "feat-1", "sha": "f" * 40, "parent": SHA_E, "files": {}})
        self.assertEqual(self.diff("1"), (200, {"protocol_version": 1, "output": "", "exit_code": 0}))

    def test_a_diff_over_4_mib_is_cut_and_says_so_on_stderr(self):
        big = diff_repo()
        big["commits"][SHA_B]["files"]["big.txt"] = ("y" * 99 + "\n") * 45000  # 4.5 MB
        self.start(forge([big]))
        status, env = self.diff("1")
        self.assertEqual(status, 200)
        self.assertEqual(len(env["output"].encode()), 4 << 20)
        self.assertEqual(env["stderr"], "diff truncated at 4 MiB; fetch the branch for the rest")

    def test_refusals(self):
        unrelated = diff_repo()
        unrelated["commits"][SHA_B]["parents"] = []
        gone = diff_repo()
        gone["merge_requests"] = [dict(gone["merge_requests"][0], head_sha="", state="source_gone", source="")]
        self.start(forge([diff_repo(), dict(unrelated, path="krz/other"), dict(gone, path="krz/gone"),
                          dict(diff_repo(), path="krz/private", visibility="private", access=["alice"],
                               admins=["alice"])]))
        for argv, want in [
            (("krz/app",), (400, 2, "usage: mr diff <owner/name> <n>")),
            (("krz/app", "x"), (400, 2, 'bad MR number "x"')),
            (("krz/app", "9"), (404, 3, "MR !9 not found in krz/app")),
            (("krz/private", "1"), (404, 3, "repository krz/private not found"))]:
            status, env = self.sim.get("mr", "diff", *argv)[0], self.sim.get("mr", "diff", *argv)[2]
            self.assertEqual((status, env.get("exit_code"), env.get("error")), want, argv)
        status, _, env = self.sim.get("mr", "diff", "krz/gone", "1")
        self.assertEqual((status, env["exit_code"], env["error"]), (500, 1, "the head of !1 is no longer in the "
                         "repository; its diff is not available"))
        status, _, env = self.sim.get("mr", "diff", "krz/other", "1")
        self.assertEqual((status, env["exit_code"], env["error"]), (500, 1, "no common history between "
                         "refs/heads/main and refs/merge-requests/1/head"))
