"""End-to-end tests of the gitbay simulator over real HTTP on loopback.

Each test class starts gitbay_sim.py as a subprocess on port 0 and talks to it with urllib, so
what is checked is the wire: statuses, headers, envelopes and the documented gitbay behaviour.
"""

import base64
import gzip
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(HERE, "gitbay_sim.py")
FIXTURE = os.path.join(HERE, "fixtures", "small-forge.json")
DEMO = os.path.join(HERE, "..", "..", "examples", "demo-forge.json")
sys.path.insert(0, HERE)
import generate_forge  # noqa: E402
import gitbay_sim  # noqa: E402

TOKEN = "gb_" + "a" * 64
ALICE = "gb_" + "b" * 64
READ_ONLY = "gb_" + "c" * 64
REPO = "krz/gitbay"


class Sim:
    """A running simulator subprocess and a tiny HTTP client for it."""

    def __init__(self, state_path, *extra):
        self.tmp = tempfile.TemporaryDirectory()
        self.journal = os.path.join(self.tmp.name, "journal.jsonl")
        self.proc = subprocess.Popen(
            [sys.executable, SIM, "--state", state_path, "--port", "0", "--token", TOKEN,
             "--user-token", "alice=" + ALICE, "--read-only-token", READ_ONLY, "--journal", self.journal,
             "--seed", "7", *extra],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().strip()
        if not line.startswith("http://"):
            self.proc.kill()
            raise RuntimeError("simulator did not start: %r %s" % (line, self.proc.stderr.read()))
        self.base = line
        self.host, self.port = urllib.parse.urlsplit(line).hostname, urllib.parse.urlsplit(line).port

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()
        self.tmp.cleanup()

    def raw(self, method, path, body=None, headers=None, token=TOKEN, auth=None):
        """Returns (status, headers, body bytes); raises on a dropped connection."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=10)
        h = dict(headers or {})
        if auth is not None:
            h["Authorization"] = auth
        elif token is not None:
            h["Authorization"] = "Bearer " + token
        data = None
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        try:
            conn.request(method, path, body=data, headers=h)
            resp = conn.getresponse()
            return resp.status, resp.headers, resp.read()
        finally:
            conn.close()

    def get(self, *argv, token=TOKEN, headers=None):
        q = urllib.parse.urlencode([("argv", a) for a in argv], quote_via=urllib.parse.quote)
        status, hdrs, body = self.raw("GET", "/api/v1/read?" + q, headers=headers, token=token)
        return status, hdrs, (json.loads(body) if body else None)

    def post(self, *argv, stdin=None, token=TOKEN):
        req = {"argv": list(argv)}
        if stdin is not None:
            req["stdin"] = stdin
        status, hdrs, body = self.raw("POST", "/api/v1/cmd", body=req, token=token)
        return status, hdrs, json.loads(body)

    def data(self, *argv):
        status, _, env = self.get(*argv)
        assert status == 200 and env["exit_code"] == 0, env
        return env["data"]

    def control(self, **kw):
        status, _, body = self.raw("POST", "/_sim/control", body=kw)
        assert status == 200, body
        return json.loads(body)

    def journal_lines(self):
        with open(self.journal, encoding="utf-8") as f:
            return [json.loads(x) for x in f if x.strip()]


class FixtureSim(unittest.TestCase):
    """Tests against the hand-written fixture; each test gets a fresh simulator (they write)."""

    extra = ("--clock", "frozen")

    def setUp(self):
        self.sim = Sim(FIXTURE, *self.extra)

    def tearDown(self):
        self.sim.stop()


class AuthAndTransportTests(FixtureSim):
    def test_missing_and_lowercase_bearer_are_401_without_exit_code(self):
        for auth in ("", "bearer " + TOKEN, "Token " + TOKEN):
            status, hdrs, body = self.sim.raw("GET", "/api/v1/read?argv=whoami", auth=auth)
            env = json.loads(body)
            self.assertEqual(status, 401)
            self.assertNotIn("exit_code", env)
            self.assertTrue(env["error"].startswith("missing bearer token"))
            self.assertEqual(hdrs["WWW-Authenticate"], 'Bearer realm="gitbay api"')
        status, hdrs, body = self.sim.raw("GET", "/api/v1/read?argv=whoami", token="gb_wrong")
        self.assertEqual(status, 401)
        self.assertEqual(json.loads(body)["error"], "invalid or expired token")
        self.assertNotIn("WWW-Authenticate", hdrs)

    def test_envelope_is_key_sorted_and_carries_exit_code(self):
        status, _, body = self.sim.raw("POST", "/api/v1/cmd", body={"argv": ["whoami"]})
        self.assertEqual(status, 200)
        text = body.decode()
        self.assertTrue(text.startswith('{"data":{"admin":false,"key_scope":"full","username":"triage-bot"}'), text)
        self.assertEqual(json.loads(text)["exit_code"], 0)

    def test_get_of_a_write_is_400_without_exit_code(self):
        status, _, env = self.sim.get("issue", "close", REPO, "212")
        self.assertEqual(status, 400)
        self.assertEqual(env["error"], "issue close changes state; POST it to /api/v1/cmd")
        self.assertNotIn("exit_code", env)

    def test_unknown_command_is_404_on_get_and_exit_2_on_post(self):
        status, _, env = self.sim.get("frobnicate")
        self.assertEqual((status, "exit_code" in env), (404, False))
        status, _, env = self.sim.post("frobnicate")
        self.assertEqual((status, env["exit_code"]), (400, 2))

    def test_bad_bodies(self):
        status, _, body = self.sim.raw("POST", "/api/v1/cmd", body=b"not json")
        self.assertEqual(status, 400)
        self.assertTrue(json.loads(body)["error"].startswith("body must be JSON"))
        status, _, body = self.sim.raw("POST", "/api/v1/cmd", body={"argv": []})
        self.assertEqual((status, json.loads(body)["error"]), (400, "argv is required"))

    def test_etag_and_if_none_match(self):
        status, hdrs, _ = self.sim.get("issue", "show", REPO, "214")
        etag = hdrs["ETag"]
        self.assertRegex(etag, r'^"[0-9a-f]{32}"$')
        status, hdrs2, body = self.sim.raw("GET", "/api/v1/read?argv=issue&argv=show&argv=krz/gitbay&argv=214",
                                           headers={"If-None-Match": 'W/"x", W/' + etag})
        self.assertEqual((status, body), (304, b""))
        self.assertEqual(hdrs2["ETag"], etag)

    def test_gzip_when_asked(self):
        status, hdrs, body = self.sim.raw("GET", "/api/v1/read?argv=label&argv=list&argv=krz/gitbay",
                                          headers={"Accept-Encoding": "gzip"})
        self.assertEqual(hdrs["Content-Encoding"], "gzip")
        self.assertEqual(json.loads(gzip.decompress(body))["exit_code"], 0)

    def test_argv_validation(self):
        cases = [
            (("issue", "label", REPO, "212", "--add=x"), 2, 'unknown flag "--add=x"'),
            (("issue", "label", REPO, "212", "--ad", "x"), 2, "did you mean --add?"),
            (("issue", "list", REPO, "--limit", "0"), 2, "--limit must be 1 to 200"),
            (("issue", "list", REPO, "--limit", "201"), 2, "--limit must be 1 to 200"),
            (("issue", "list", REPO, "--cursor", "bXI6MTU4"), 2, "bad cursor"),
            (("issue", "list", REPO, "--cursor", "!!"), 2, "bad cursor"),
            (("issue", "show", REPO), 2, "usage: issue show"),
            (("issue", "show", REPO, "212", "extra"), 2, "usage: issue show"),
            (("issue", "show", REPO, "999"), 3, "not found"),
            (("repo", "show", "krz/nope"), 3, "not found"),
            (("issue", "list", REPO, "--state", "stale"), 2, "--state"),
            (("build", "list", REPO, "--status", "queued"), 2, "--status"),
        ]
        for argv, code, text in cases:
            status, _, env = self.sim.post(*argv)
            self.assertEqual(env.get("exit_code"), code, (argv, env))
            self.assertEqual(status, {2: 400, 3: 404}[code])
            self.assertIn(text, env["error"], argv)

    def test_value_flags_take_the_next_word_and_double_dash_ends_flags(self):
        status, _, env = self.sim.post("issue", "comment", REPO, "214", "--message", "--add")
        self.assertEqual(env["exit_code"], 0, env)
        shown = self.sim.data("issue", "show", REPO, "214")
        self.assertEqual(shown["comments"][-1]["body"], "--add")
        status, _, env = self.sim.post("issue", "label", "--add", "x", "--", REPO, "214")
        self.assertEqual(env["exit_code"], 0, env)


class ListShapeTests(FixtureSim):
    def test_issue_rows_lack_labels_assignees_and_updated_at(self):
        rows = self.sim.data("issue", "list", REPO)
        self.assertIsInstance(rows, list)
        self.assertEqual([r["number"] for r in rows], [214, 213, 212, 16])
        for r in rows:
            for k in ("labels", "assignees", "updated_at", "body", "comments"):
                self.assertNotIn(k, r)
        self.assertEqual(rows[1]["milestone"], "v1.38.0")

    def test_issue_list_filters(self):
        numbers = lambda *a: [r["number"] for r in self.sim.data("issue", "list", REPO, *a)]  # noqa: E731
        self.assertEqual(numbers("--label", "bug"), [214, 212])
        self.assertEqual(numbers("--state", "closed"), [211])
        self.assertEqual(numbers("--state", "all", "--milestone", "none"), [214, 212, 16])
        self.assertEqual(numbers("--assignee", "cmc"), [213])
        self.assertEqual(numbers("--author", "gitbay"), [16])
        self.assertEqual(numbers("--search", "heartbeat"), [212])

    def test_issue_show_has_labels_and_comments_but_no_kind_or_updated_at(self):
        it = self.sim.data("issue", "show", REPO, "212")
        self.assertEqual(it["labels"], ["bug", "stale"])
        # control/thread.go commentOut: `kind` is `json:"-"`; the author `system` tells the entry.
        self.assertEqual([c["author"] == "system" for c in it["comments"]], [False, True])
        self.assertFalse(any("kind" in c for c in it["comments"]))
        self.assertNotIn("updated_at", it)

    def test_mr_rows_lack_labels_and_carry_stacked_on(self):
        rows = self.sim.data("mr", "list", REPO)
        self.assertEqual([r["number"] for r in rows], [160, 159, 158])
        for r in rows:
            self.assertNotIn("labels", r)
            self.assertNotIn("review_requests", r)
        self.assertEqual(rows[0]["stacked_on"], {"number": 159, "title": "ci: reap abandoned builds"})
        shown = self.sim.data("mr", "show", REPO, "159")
        self.assertEqual(shown["stacked"], [{"number": 160, "title": "runners: attach keys per repository"}])
        self.assertEqual(shown["review_requests"], ["alice"])
        self.assertEqual(shown["gates"]["approvals"], ["alice"])
        self.assertNotIn("unmet", shown["gates"])
        self.assertIn("!160 is a draft", self.sim.data("mr", "show", REPO, "160")["gates"]["unmet"][0])

    def test_build_list_bare_and_paged(self):
        rows = self.sim.data("build", "list", REPO)
        self.assertEqual([b["number"] for b in rows], [4215, 4214, 4213, 4212, 4211, 4210, 4209])
        self.assertNotIn("finished_at", rows[0])
        page = self.sim.data("build", "list", REPO, "--ref", "feat-x", "--job", "test", "--limit", "1")
        self.assertEqual([b["number"] for b in page["items"]], [4214])
        self.assertEqual(base64.urlsafe_b64decode(page["next"] + "==").decode(), "build:4214")
        rest = self.sim.data("build", "list", REPO, "--ref", "feat-x", "--job", "test", "--cursor", page["next"])
        self.assertEqual([b["number"] for b in rest["items"]], [4213])
        self.assertNotIn("next", rest)

    def test_refs_deps_labels_milestones(self):
        refs = self.sim.data("repo", "refs", REPO)
        self.assertIn({"name": "main", "sha": "1" * 40}, refs["branches"])
        self.assertEqual(refs["tags"][0]["name"], "v1.37.0")
        deps = self.sim.data("repo", "deps", "status", REPO)
        self.assertEqual((deps["enabled"], deps["issue_number"]), (True, 16))
        labels = self.sim.data("label", "list", REPO)
        self.assertEqual(labels[0], {"name": "security", "color": "#cf222e", "org": True, "issues": 0, "mrs": 0})
        self.assertEqual(next(x for x in labels if x["name"] == "bug")["issues"], 2)
        self.assertEqual([m["title"] for m in self.sim.data("milestone", "list", REPO)], ["v1.38.0"])
        self.assertEqual(self.sim.data("repo", "list"), [{"path": REPO, "visibility": "public",
                                                          "description": "a small forge"}])


class QueryLanguageTests(FixtureSim):
    def q(self, noun, text, *more):
        status, _, env = self.sim.get(noun, "list", "--q", text, *more)
        return status, env

    def numbers(self, noun, text):
        status, env = self.q(noun, text)
        self.assertEqual(status, 200, env)
        return [r["number"] for r in env["data"]["items"]]

    def test_filters(self):
        self.assertEqual(self.numbers("issue", "repo:krz/gitbay is:open label:bug"), [214, 212])
        self.assertEqual(self.numbers("issue", "repo:krz/git* label:bug label:stale"), [212])
        self.assertEqual(self.numbers("issue", "owner:krz is:open no:label"), [213, 16])
        self.assertEqual(self.numbers("issue", "repo:* is:closed"), [211])
        self.assertEqual(self.numbers("issue", "repo:alice/* is:open"), [])
        self.assertEqual(self.numbers("issue", 'milestone:"v1.38.0"'), [213])
        self.assertEqual(self.numbers("issue", "no:milestone is:open author:cmc"), [214, 212])
        self.assertEqual(self.numbers("issue", "assignee:cmc"), [213])
        self.assertEqual(self.numbers("issue", "heartbeat"), [212])
        self.assertEqual(self.numbers("mr", "is:open author:cmc"), [160, 159])
        self.assertEqual(self.numbers("mr", "is:merged"), [150])
        self.assertEqual(self.numbers("mr", "author:@me"), [])

    def test_rows_are_query_items_newest_created_first(self):
        _, env = self.q("mr", "repo:krz/gitbay is:open")
        rows = env["data"]["items"]
        self.assertNotIn("next", env["data"])
        self.assertEqual(rows[0]["kind"], "mr")
        self.assertEqual(rows[0]["repo"], REPO)
        self.assertTrue(rows[0]["draft"])
        self.assertIn("updated_at", rows[0])
        created = [r["created_at"] for r in rows]
        self.assertEqual(created, sorted(created, reverse=True))

    def test_query_paging(self):
        _, env = self.q("issue", "repo:krz/gitbay", "--limit", "2")
        first = env["data"]
        self.assertEqual([r["number"] for r in first["items"]], [214, 213])
        key = base64.urlsafe_b64decode(first["next"] + "==").decode()
        self.assertTrue(key.startswith("query:2026-09-27T21:40:05.004Z|0|"), key)
        _, env = self.q("issue", "repo:krz/gitbay", "--limit", "2", "--cursor", first["next"])
        self.assertEqual([r["number"] for r in env["data"]["items"]], [212, 211])
        status, env = self.q("issue", "repo:krz/gitbay", "--cursor", "aXNzdWU6MjEy")
        self.assertEqual((status, env["exit_code"], env["error"]), (400, 2, "bad cursor"))

    def test_contradictions_and_misuse_are_exit_2(self):
        bad = [("issue", "is:merged is:issue"), ("issue", "assignee:cmc is:mr"), ("mr", "is:mr assignee:cmc"),
               ("issue", "label:bug no:label"), ("issue", "milestone:a milestone:b"),
               ("issue", "milestone:a no:milestone"), ("issue", "color:red"), ("issue", ""), ("issue", "  "),
               ("issue", 'label:"needs review'), ("issue", "x"), ("issue", "is:open is:closed"),
               ("issue", "is:mr"), ("issue", "is:merged"), ("mr", "is:issue"), ("mr", "assignee:cmc"),
               ("issue", "no:assignee"), ("issue", "is:draft")]
        for noun, text in bad:
            status, env = self.q(noun, text)
            self.assertEqual((status, env.get("exit_code")), (400, 2), (noun, text, env))
        status, env = self.q("issue", "color:red")
        self.assertIn("repo:, owner:, is:, label:, no:, milestone:, assignee: and author:", env["error"])
        status, _, env = self.sim.get("issue", "list", REPO, "--q", "is:open")
        self.assertEqual(env["exit_code"], 2)
        status, _, env = self.sim.get("issue", "list", "--q", "is:open", "--state", "open")
        self.assertEqual(env["exit_code"], 2)
        status, _, env = self.sim.get("issue", "list", "--q", "is:open", "--limit", "201")
        self.assertEqual(env["exit_code"], 2)

    def test_quoted_label_values(self):
        self.sim.post("issue", "label", REPO, "213", "--add", "needs review")
        self.assertEqual(self.numbers("issue", 'label:"needs review"'), [213])
        self.assertEqual(self.numbers("issue", '"heartbeat"'), [212])


class WriteTests(FixtureSim):
    def updated_at(self, n):
        _, _, env = self.sim.get("issue", "list", "--q", "repo:krz/gitbay", "--limit", "200")
        return next(r["updated_at"] for r in env["data"]["items"] if r["number"] == n)

    def test_comment_bumps_updated_at_but_label_and_assign_do_not(self):
        before = self.updated_at(213)
        status, _, env = self.sim.post("issue", "label", REPO, "213", "--add", "stale")
        self.assertEqual(env["data"], {"number": 213, "labels": ["stale"]})
        self.sim.post("issue", "assign", REPO, "213", "--add", "alice")
        self.assertEqual(self.updated_at(213), before)
        status, _, env = self.sim.post("issue", "comment", REPO, "213", "--file", "-", stdin="still here\n")
        self.assertEqual(env["data"], {"number": 213})
        self.assertEqual(self.updated_at(213), "2026-11-29T12:00:00.000Z")
        shown = self.sim.data("issue", "show", REPO, "213")
        self.assertEqual(shown["comments"][-1]["body"], "still here\n")
        self.assertEqual(shown["comments"][-1]["author"], "triage-bot")

    def test_label_remove_and_null_labels(self):
        _, _, env = self.sim.post("issue", "label", REPO, "214", "--remove", "bug")
        self.assertEqual(env["data"], {"number": 214, "labels": None})
        _, _, env = self.sim.post("issue", "label", REPO, "214", "--remove", "bug")
        self.assertEqual(env["exit_code"], 3)
        _, _, env = self.sim.post("issue", "label", REPO, "214")
        self.assertEqual(env["exit_code"], 2)

    def test_comment_refusals(self):
        for argv, stdin in [(("--message", "   "), None), (("--file", "-"), "\n"), (("--file", "body.txt"), "x"),
                            (("--message", "a", "--file", "-"), "b"), ((), None),
                            (("--file", "-"), "x" * (64 * 1024 + 1))]:
            _, _, env = self.sim.post("issue", "comment", REPO, "214", *argv, stdin=stdin)
            self.assertEqual(env["exit_code"], 2, (argv, env))

    def test_issue_create_files_an_open_issue_found_by_its_body_words(self):
        _, _, env = self.sim.post("issue", "create", REPO, "--title", "bot summary", "--file", "-",
                                  stdin="<!-- gitbay-bot:summary 0123abcd -->\nall quiet\n")
        number = env["data"]["number"]
        shown = self.sim.data("issue", "show", REPO, str(number))
        self.assertEqual((shown["title"], shown["state"], shown["author"]), ("bot summary", "open", "triage-bot"))
        self.assertIn("all quiet", shown["body"])
        rows = self.sim.data("issue", "list", "--q", "repo:%s is:open author:@me 0123abcd" % REPO)["items"]
        self.assertEqual([r["number"] for r in rows], [number])
        for argv in (("--file", "-"), ("--title", " "), ("--title", "t", "--body", "b", "--file", "-")):
            _, _, env = self.sim.post("issue", "create", REPO, *argv, stdin="x")
            self.assertEqual(env["exit_code"], 2, argv)

    def test_issue_edit_replaces_the_body_in_place_and_file_wins_over_body(self):
        _, _, env = self.sim.post("issue", "edit", REPO, "214", "--body", "ignored", "--file", "-", stdin="new body")
        self.assertEqual(env["data"], {"number": 214})
        shown = self.sim.data("issue", "show", REPO, "214")
        self.assertEqual(shown["body"], "new body")
        self.assertEqual(self.updated_at(214), "2026-11-29T12:00:00.000Z")
        _, _, env = self.sim.post("issue", "edit", REPO, "214")
        self.assertEqual(env["exit_code"], 2)
        _, _, env = self.sim.get("issue", "edit", REPO, "214", "--title", "x")
        self.assertNotEqual(env.get("exit_code"), 0)

    def test_mr_edit_replaces_the_description(self):
        number = str(self.sim.data("mr", "list", REPO)[0]["number"])
        _, _, env = self.sim.post("mr", "edit", REPO, number, "--file", "-", stdin="described")
        self.assertEqual(env["data"], {"number": int(number)})
        self.assertEqual(self.sim.data("mr", "show", REPO, number)["body"], "described")
        _, _, env = self.sim.post("mr", "edit", REPO, number)
        self.assertEqual(env["exit_code"], 2)

    def test_close_reopen(self):
        _, _, env = self.sim.post("issue", "close", REPO, "214")
        self.assertEqual(env["data"], {"number": 214, "state": "closed"})
        _, _, env = self.sim.post("issue", "close", REPO, "214")
        self.assertEqual((env["exit_code"], "already closed" in env["error"]), (2, True))
        _, _, env = self.sim.post("issue", "reopen", REPO, "214")
        self.assertEqual(env["data"], {"number": 214, "state": "open"})

    def test_milestone_and_assign(self):
        _, _, env = self.sim.post("issue", "milestone", REPO, "214", "v1.38.0")
        self.assertEqual(env["data"], {"milestone": "v1.38.0"})
        _, _, env = self.sim.post("issue", "milestone", REPO, "214", "none")
        self.assertEqual(env["data"], {"milestone": ""})
        _, _, env = self.sim.post("issue", "milestone", REPO, "214", "v9")
        self.assertEqual(env["exit_code"], 3)
        _, _, env = self.sim.post("issue", "assign", REPO, "214", "--add", "nobody")
        self.assertEqual(env["exit_code"], 3)

    def test_stack_retarget_on_merge_keeps_draft_and_reviews(self):
        _, _, env = self.sim.post("mr", "merge", REPO, "159", "--strategy", "squash")
        self.assertEqual(env["exit_code"], 2, env)
        _, _, env = self.sim.post("mr", "merge", REPO, "159")
        self.assertEqual(env["data"]["strategy"], "ff")
        parent = self.sim.data("mr", "show", REPO, "159")
        self.assertEqual((parent["state"], parent["merged_by"]), ("merged", "triage-bot"))
        self.assertNotIn("gates", parent)
        child = self.sim.data("mr", "show", REPO, "160")
        self.assertEqual(child["target_ref"], "main")
        self.assertNotIn("stacked_on", child)
        self.assertTrue(child["draft"])
        self.assertEqual(len(child["reviews"]), 1)
        retarget = dict(child["comments"][-1])
        self.assertIsInstance(retarget.pop("id"), int)
        self.assertEqual(retarget, {"author": "system",
                                                 "body": "retargeted from stack-1-reaper to main: !159 merged",
                                                 "created_at": "2026-11-29T12:00:00.000Z"})
        refs = {b["name"]: b["sha"] for b in self.sim.data("repo", "refs", REPO)["branches"]}
        self.assertEqual(refs["main"], "4b1d0c9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c")
        _, _, env = self.sim.post("mr", "ready", REPO, "160")
        self.assertEqual(env["data"], {"number": 160, "draft": False})
        _, _, env = self.sim.post("mr", "ready", REPO, "160")
        self.assertEqual((env["exit_code"], env["error"]), (2, "MR !160 is already ready"))

    def test_ready_on_non_draft_and_queued_merge_on_ready(self):
        _, _, env = self.sim.post("mr", "ready", REPO, "159")
        self.assertEqual(env["exit_code"], 2)
        self.assertIn("already ready", env["error"])
        _, _, env = self.sim.post("mr", "merge", REPO, "160", "--when-ready")
        self.assertTrue(env["data"]["queued"], env)
        self.assertIn("queued", self.sim.data("mr", "list", REPO)[0])
        self.sim.post("mr", "ready", REPO, "160")
        self.assertEqual(self.sim.data("mr", "show", REPO, "160")["state"], "merged")

    def test_mr_close_and_draft(self):
        _, _, env = self.sim.post("mr", "draft", REPO, "160")
        self.assertEqual(env["exit_code"], 2)
        _, _, env = self.sim.post("mr", "close", REPO, "158", "--by", "158")
        self.assertEqual(env["exit_code"], 2)
        _, _, env = self.sim.post("mr", "close", REPO, "158", "--by", "159")
        self.assertEqual(env["data"], {"number": 158, "state": "closed"})
        self.assertEqual(self.sim.data("mr", "show", REPO, "158")["superseded_by"], 159)

    def test_build_cancel(self):
        _, _, env = self.sim.post("build", "cancel", REPO, "4211")
        self.assertEqual(env, {"protocol_version": 1, "exit_code": 2,
                               "error": "build 4211 is failure; only a queued or running build can be cancelled"})
        _, _, env = self.sim.post("build", "cancel", REPO, "4213")
        self.assertEqual(env["data"], {"number": 4213, "job": "test", "status": "cancelled", "was": "running"})
        b = self.sim.data("build", "show", REPO, "4213")
        self.assertEqual((b["status"], b["finished_at"]), ("cancelled", "2026-11-29T12:00:00Z"))
        _, _, env = self.sim.post("build", "cancel", REPO, "99")
        self.assertEqual(env["exit_code"], 3)

    def test_an_mr_comment_leaves_its_updated_at_alone(self):
        before = [m for m in self.sim.data("mr", "list", "--q", "repo:%s is:mr" % REPO)["items"] if m["number"] == 160]
        self.sim.post("mr", "comment", REPO, "160", "--message", "looks good")
        after = [m for m in self.sim.data("mr", "list", "--q", "repo:%s is:mr" % REPO)["items"] if m["number"] == 160]
        self.assertEqual(after[0]["updated_at"], before[0]["updated_at"])
        self.assertEqual(self.sim.data("mr", "show", REPO, "160")["comments"][-1]["body"], "looks good")

    def test_a_push_moves_the_branch_and_its_mrs_head_and_queues_builds(self):
        sha = "f" * 40
        self.sim.control(push={"repo": REPO, "branch": "stack-2-runners", "sha": sha})
        refs = {ref["name"]: ref["sha"] for ref in self.sim.data("repo", "refs", REPO)["branches"]}
        self.assertEqual(refs["stack-2-runners"], sha)
        mr = self.sim.data("mr", "show", REPO, "160")
        self.assertEqual(mr["head_sha"], sha)
        self.assertTrue(all(rv["stale"] for rv in mr.get("reviews") or []))
        queued = [b for b in self.sim.data("build", "list", REPO) if b["sha"] == sha]
        self.assertEqual({b["status"] for b in queued}, {"pending"})
        self.assertEqual({b["ref"] for b in queued}, {"stack-2-runners"})
        self.assertEqual(len(queued), len({b["job"] for b in queued}))

    def test_a_finished_build_keeps_its_status_and_a_bad_finish_is_400(self):
        self.sim.control(finish_build={"repo": REPO, "number": 4213, "status": "success"})
        b = self.sim.data("build", "show", REPO, "4213")
        self.assertEqual((b["status"], b["finished_at"]), ("success", "2026-11-29T12:00:00Z"))
        status, _, body = self.sim.raw(
            "POST", "/_sim/control", body={"finish_build": {"repo": REPO, "number": 4213, "status": "failure"}})
        self.assertEqual(status, 400, body)
        status, _, _ = self.sim.raw("POST", "/_sim/control", body={"push": {"repo": REPO, "branch": "x", "sha": "1"}})
        self.assertEqual(status, 400)

    def test_writes_record_events_newest_first_and_a_retarget_records_none(self):
        self.sim.post("issue", "comment", REPO, "213", "--message", "ping", token=ALICE)
        self.sim.post("issue", "label", REPO, "213", "--add", "stale")
        self.sim.post("issue", "close", REPO, "9999")
        self.sim.post("mr", "merge", REPO, "159")
        self.sim.control(push={"repo": REPO, "branch": "feat-x", "sha": "e" * 40, "actor": "cmc"})
        feed = self.sim.data("feed")
        kinds = [(e["kind"], e.get("actor"), e["data"].get("number")) for e in feed]
        self.assertEqual(kinds[-2:], [("issue.labeled", "triage-bot", 213), ("issue.commented", "alice", 213)])
        self.assertEqual(kinds[0], ("mr.merged", "triage-bot", 159))  # the push is not in the feed
        self.assertNotIn("push", [k for k, _, _ in kinds])
        self.assertNotIn("mr.retargeted", [k for k, _, _ in kinds])
        self.assertEqual([e["id"] for e in feed], sorted((e["id"] for e in feed), reverse=True))

    def test_feed_pages_back_by_id(self):
        for n in range(5):
            self.sim.post("issue", "comment", REPO, "213", "--message", "c%d" % n)
        first = self.sim.data("feed", "--limit", "2")
        self.assertEqual(len(first["items"]), 2)
        second = self.sim.data("feed", "--limit", "2", "--cursor", first["next"])
        self.assertEqual(second["items"][0]["id"], first["items"][-1]["id"] - 1)
        self.assertEqual(self.sim.get("feed", "--cursor", "bad!")[2]["exit_code"], 2)

    def test_label_set(self):
        _, _, env = self.sim.post("label", "set", REPO, "triage", "--color", "ABCDEF")
        self.assertEqual(env["data"], {"name": "triage", "color": "#abcdef", "issues": 0, "mrs": 0})
        _, _, env = self.sim.post("label", "set", REPO, "security")
        self.assertEqual(env["exit_code"], 1)
        _, _, env = self.sim.post("label", "set", REPO, "x", "--color", "red")
        self.assertEqual(env["exit_code"], 2)

    def test_read_only_token_and_user_tokens(self):
        status, _, env = self.sim.post("issue", "close", REPO, "214", token=READ_ONLY)
        self.assertEqual((status, env["exit_code"]), (403, 4))
        self.assertTrue(env["error"].startswith("this token is read-only"))
        status, _, env = self.sim.get("whoami", token=READ_ONLY)
        self.assertEqual(env["data"]["username"], "triage-bot")
        _, _, env = self.sim.post("issue", "comment", REPO, "214", "--message", "hi", token=ALICE)
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["comments"][-1]["author"], "alice")

    def test_journal_records_every_write_once(self):
        self.sim.post("issue", "label", REPO, "213", "--add", "stale")
        self.sim.post("issue", "close", REPO, "211")
        self.sim.get("issue", "show", REPO, "213")
        lines = self.sim.journal_lines()
        self.assertEqual([x["seq"] for x in lines], [1, 2])
        self.assertEqual(lines[0]["argv"], ["issue", "label", REPO, "213", "--add", "stale"])
        self.assertEqual((lines[0]["applied"], lines[0]["exit_code"], lines[0]["user"]), (True, 0, "triage-bot"))
        self.assertEqual((lines[1]["applied"], lines[1]["exit_code"]), (False, 2))


class ControlTests(FixtureSim):
    def test_revoke_read_only_advance_state_and_stats(self):
        self.sim.control(advance_seconds=3600)
        self.sim.post("issue", "comment", REPO, "213", "--message", "later")
        state = json.loads(self.sim.raw("GET", "/_sim/state")[2])
        self.assertEqual(state["format"], "gitbay-forge-state/1")
        issue = next(i for i in state["repos"][0]["issues"] if i["number"] == 213)
        self.assertEqual(issue["updated_at"], "2026-11-29T13:00:00.000Z")
        self.sim.control(read_only=True)
        _, _, env = self.sim.post("issue", "close", REPO, "213")
        self.assertEqual(env["exit_code"], 4)
        self.sim.control(read_only=False, revoke=True)
        status, _, _ = self.sim.get("whoami")
        self.assertEqual(status, 401)
        self.sim.control(revoke=False)
        self.assertEqual(self.sim.get("whoami")[0], 200)
        stats = json.loads(self.sim.raw("GET", "/_sim/stats")[2])
        self.assertEqual(stats["commands"]["issue comment"], 1)
        self.assertGreaterEqual(stats["methods"]["GET"], 2)
        self.assertEqual(self.sim.raw("GET", "/_sim/stats", token=ALICE)[0], 401)


class ReactionCommentIdAndRoleTests(FixtureSim):
    """Comment ids, reactions, `repo access list` and the expiring token on the hand-written fixture."""

    def test_show_gives_every_comment_an_id_and_a_reaction_shows_with_me(self):
        shown = self.sim.data("issue", "show", REPO, "213")
        ids = [c["id"] for c in shown.get("comments", [])]
        self.assertTrue(all(isinstance(i, int) and i > 0 for i in ids))
        self.assertEqual(len(set(ids)), len(ids))
        _, _, env = self.sim.post("issue", "react", REPO, "213", "rocket")
        self.assertEqual(env["data"], {"reaction": "rocket"})
        self.assertEqual(self.sim.data("issue", "show", REPO, "213")["reactions"],
                         [{"reaction": "rocket", "count": 1, "me": True}])
        _, _, env = self.sim.post("issue", "comment", REPO, "213", "--message", "ack")
        comment = self.sim.data("issue", "show", REPO, "213")["comments"][-1]
        self.assertGreater(comment["id"], max(ids, default=0))  # the next id of the forge's issue comments
        _, _, env = self.sim.post("issue", "react", REPO, "213", "--comment", str(comment["id"]), "eyes")
        self.assertEqual(env["data"], {"reaction": "eyes", "comment": comment["id"]})
        state = json.loads(self.sim.raw("GET", "/_sim/state")[2])
        issue = next(i for i in state["repos"][0]["issues"] if i["number"] == 213)
        self.assertEqual(issue["reactions"], [{"reaction": "rocket", "count": 1, "me": True, "users": ["triage-bot"]}])
        self.assertEqual(issue["comments"][-1]["reactions"],
                         [{"reaction": "eyes", "count": 1, "me": True, "users": ["triage-bot"]}])
        journal = self.sim.journal_lines()
        self.assertEqual([(j["argv"][:2], j["applied"]) for j in journal][0], (["issue", "react"], True))

    def test_a_reaction_already_given_is_no_change_in_the_journal(self):
        for _ in range(2):
            self.sim.post("mr", "react", REPO, "159", "hooray")
        self.sim.post("mr", "react", REPO, "159", "--remove", "laugh")
        self.assertEqual([j["applied"] for j in self.sim.journal_lines()], [True, False, False])

    def test_access_list_answers_the_bots_own_repository(self):
        rows = self.sim.data("repo", "access", "list", REPO)
        self.assertIn({"user": "triage-bot", "role": "admin", "source": "direct"}, rows)
        self.assertEqual(rows, sorted(rows, key=lambda r: r["user"]))
        self.assertTrue(all(set(r) == {"user", "role", "source"} for r in rows))

    def test_token_expires_control_takes_a_timestamp_or_null(self):
        status, _, body = self.sim.raw("POST", "/_sim/control", body={"token_expires": 5})
        self.assertEqual(status, 400, body)
        status, _, body = self.sim.raw("POST", "/_sim/control", body={"token_expires": "soon"})
        self.assertEqual(status, 400, body)
        self.assertEqual(self.sim.control(token_expires="2030-01-01T00:00:00Z")["token_expires"],
                         "2030-01-01T00:00:00.000Z")
        self.assertEqual(self.sim.get("whoami")[0], 200)

    def test_the_registry_rows_of_react_match_the_simulated_commands(self):
        path = os.path.join(HERE, "..", "GitbayKitTests", "Fixtures", "gitbay-registry.json")
        with open(path, encoding="utf-8") as f:
            registry = json.load(f)
        for name in ("issue react", "mr react"):
            self.assertIn(name, registry["known_paths"])
            entry = next(c for c in registry["commands"] if c["path"] == name)
            spec = gitbay_sim.SPECS[tuple(name.split())]
            self.assertEqual((entry["read_only"], entry["reads_stdin"], entry["parser"]),
                             (spec.read_only, spec.reads_stdin, spec.parser))
            self.assertEqual({f["name"]: f["takes_value"] for f in entry["flags"]},
                             {**{v: True for v in spec.values}, **{b: False for b in spec.bools}})
            self.assertEqual(entry["positional_count"], {"min": 3, "max": spec.pos[1]})
            # Every name, then the emoji ParseReaction takes for them (the bot sends one for -1).
            values = entry["positionals"][2]["values"]
            self.assertEqual(values[:len(gitbay_sim.REACTION_NAMES)], gitbay_sim.REACTION_NAMES)
            self.assertTrue(all(gitbay_sim.parse_reaction(v) for v in values), values)
            self.assertIn("\U0001F44E", values)
            self.assertEqual(spec.usage, entry["path"] + " <owner/name> <n> [--comment <id>] <reaction> [--remove]")


class TokenExpiresFlagTest(unittest.TestCase):
    def test_a_bad_token_expires_is_a_usage_error(self):
        import contextlib
        import io
        with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
            gitbay_sim.parse_args(["--state", FIXTURE, "--token-expires", "tomorrow"])
        self.assertEqual(gitbay_sim.parse_args(["--state", FIXTURE, "--token-expires", "2027-01-01T00:00:00Z"])
                         .token_expires, "2027-01-01T00:00:00Z")


class FaultTests(FixtureSim):
    def set_faults(self, *specs):
        self.sim.control(faults=list(specs))

    def test_status_faults(self):
        self.set_faults("500,times=1")
        self.assertEqual(self.sim.get("whoami")[0], 500)
        self.assertEqual(self.sim.get("whoami")[0], 200)
        self.set_faults("503,retry_after=7,times=1")
        status, hdrs, env = self.sim.get("whoami")
        self.assertEqual((status, hdrs["Retry-After"]), (503, "7"))
        self.set_faults("429,times=1")
        status, hdrs, env = self.sim.get("whoami")
        self.assertEqual((status, hdrs["Retry-After"], "exit_code" in env), (429, "1", False))
        self.set_faults("401,times=1")
        self.assertEqual(self.sim.get("whoami")[0], 401)
        self.set_faults("too-many-writes,times=1")
        self.assertEqual(self.sim.get("whoami")[0], 200)
        status, hdrs, env = self.sim.post("issue", "close", REPO, "214")
        self.assertEqual((status, env["exit_code"]), (403, 4))
        self.assertTrue(env["error"].startswith("too many writes"))
        self.assertNotIn("Retry-After", hdrs)
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "open")

    def test_command_and_method_matching(self):
        self.set_faults("500,command=issue label,method=POST")
        self.assertEqual(self.sim.post("issue", "close", REPO, "214")[0], 200)
        self.assertEqual(self.sim.post("issue", "label", REPO, "213", "--add", "x")[0], 500)
        self.assertEqual(self.sim.get("issue", "show", REPO, "213")[0], 200)

    def test_rate_uses_the_seed(self):
        self.set_faults("500,rate=0.5")
        statuses = [self.sim.get("whoami")[0] for _ in range(20)]
        self.assertIn(500, statuses)
        self.assertIn(200, statuses)

    def test_reset_drops_without_applying(self):
        self.set_faults("reset,times=1")
        with self.assertRaises((ConnectionError, http.client.HTTPException)):
            self.sim.post("issue", "close", REPO, "214")
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "open")
        self.assertEqual(self.sim.journal_lines()[-1]["applied"], False)

    def test_reset_after_applies_then_drops(self):
        self.set_faults("reset-after,times=1")
        with self.assertRaises((ConnectionError, http.client.HTTPException)):
            self.sim.post("issue", "close", REPO, "214")
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "closed")
        last = self.sim.journal_lines()[-1]
        self.assertEqual((last["applied"], last["fault"], last["exit_code"]), (True, "reset-after", 0))

    def test_slow(self):
        self.set_faults("slow,delay=0.3,times=1")
        t = time.monotonic()
        self.assertEqual(self.sim.get("whoami")[0], 200)
        self.assertGreaterEqual(time.monotonic() - t, 0.3)

    def stats(self):
        return json.loads(self.sim.raw("GET", "/_sim/stats")[2])

    def wait_for(self, condition):
        """Polls `condition` until it holds; fails after 10 s, which only a broken simulator takes.

        The one poll of these tests, for what the simulator signals nothing of (its counters moving):
        its 10 ms pause is the only sleep a test here waits with, and the deadline bounds it.
        """
        deadline = time.monotonic() + 10
        while not condition():
            self.assertLess(time.monotonic(), deadline, "the condition never held")
            time.sleep(0.01)

    def test_hold_waits_for_a_release(self):
        self.set_faults("hold,method=POST")
        answers = []
        writer = threading.Thread(target=lambda: answers.append(self.sim.post("issue", "close", REPO, "214")[0]))
        writer.start()
        self.wait_for(lambda: self.stats()["held"] == 1)
        self.assertEqual(self.stats()["in_flight"], 1)
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "open")
        self.assertEqual(self.sim.journal_lines(), [])
        self.sim.control(release=1)
        writer.join(10)
        self.assertEqual(answers, [200])
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "closed")
        stats = self.stats()
        self.assertEqual((stats["held"], stats["in_flight"], stats["faults"]["hold"]), (0, 0, 1))
        # A release given ahead lets the next held request through at once.
        self.sim.control(release=1)
        self.assertEqual(self.sim.post("issue", "close", REPO, "213")[0], 200)
        self.assertEqual(self.sim.raw("POST", "/_sim/control", body={"release": -1})[0], 400)

    def test_a_dropped_hold_never_runs_its_command(self):
        self.set_faults("hold,method=POST")
        answers = []

        def close():
            try:
                answers.append(self.sim.post("issue", "close", REPO, "214")[0])
            except OSError as error:
                answers.append(type(error).__name__)

        writer = threading.Thread(target=close)
        writer.start()
        self.wait_for(lambda: self.stats()["held"] == 1)
        self.sim.control(drop=1)
        writer.join(10)
        self.assertEqual(len(answers), 1)
        self.assertNotEqual(answers, [200])
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "open")
        self.assertEqual([line["applied"] for line in self.sim.journal_lines()], [False])
        self.assertEqual(self.sim.raw("POST", "/_sim/control", body={"drop": -1})[0], 400)

    def test_malformed_and_truncated(self):
        self.set_faults("malformed,times=1")
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=whoami")
        self.assertEqual(status, 200)
        with self.assertRaises(ValueError):
            json.loads(body)
        self.set_faults("truncated,times=1")
        with self.assertRaises((http.client.IncompleteRead, ConnectionError)):
            self.sim.raw("GET", "/api/v1/read?argv=whoami")
        self.set_faults("truncated,honest=1,times=1")
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=whoami")
        self.assertEqual(status, 200)
        with self.assertRaises(ValueError):
            json.loads(body)
        self.assertEqual(self.sim.get("whoami")[0], 200)

    def test_huge_is_valid_json_padded_and_applies(self):
        self.set_faults("huge,bytes=3000000,times=1,method=POST")
        status, hdrs, body = self.sim.raw("POST", "/api/v1/cmd", body={"argv": ["issue", "close", REPO, "214"]},
                                          headers={"Accept-Encoding": "gzip"})
        self.assertEqual((status, "Content-Encoding" in hdrs), (200, False))
        self.assertGreater(len(body), 3000000)
        self.assertEqual(json.loads(body)["exit_code"], 0)
        self.assertEqual(self.sim.data("issue", "show", REPO, "214")["state"], "closed")
        last = self.sim.journal_lines()[-1]
        self.assertEqual((last["applied"], last["fault"]), (True, "huge"))

    def test_after_lets_the_first_matching_requests_through(self):
        self.set_faults("401,after=2,method=GET")
        self.assertEqual([self.sim.get("whoami")[0] for _ in range(4)], [200, 200, 401, 401])
        self.set_faults("500,after=1,times=1,command=issue close")
        self.assertEqual(self.sim.get("whoami")[0], 200)
        self.assertEqual(self.sim.post("issue", "close", REPO, "214")[0], 200)
        self.assertEqual(self.sim.post("issue", "close", REPO, "213")[0], 500)
        self.assertEqual(self.sim.post("issue", "close", REPO, "213")[0], 200)


def milestone_forge():
    """An org `acme` of three repositories (one archived) sharing the org milestone `2026 Q4`, and a
    user `solo` with a repository without milestones."""
    q4 = {"title": "2026 Q4", "state": "open", "due": "2026-12-31", "description": "org plan", "org": True}

    def item(n, state, milestone, **more):
        return {"number": n, "title": "item %d" % n, "state": state, "author": "alice", "milestone": milestone,
                "created_at": "2026-10-01T00:00:00.000Z", **more}

    def mr(n, state, milestone, **more):
        return item(n, state, milestone, source="b%d" % n, target_ref="main", head_sha="%040d" % n, **more)

    return {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
            "repos": [
                {"path": "acme/api",
                 "milestones": [dict(q4), {"title": "v2", "due": "2026-11-01"},
                                {"title": "v1", "state": "closed", "due": "2026-06-01"}, {"title": "Someday"},
                                {"title": "v3", "due": "2026-11-01", "description": "after v2"}],
                 "issues": [item(1, "open", "v2"), item(2, "closed", "v2"), item(3, "open", "2026 Q4")],
                 "merge_requests": [mr(10, "open", "v2"), mr(11, "source_gone", "v2"), mr(12, "merged", "v2"),
                                    mr(13, "closed", "v2"), mr(14, "open", "2026 Q4", draft=True)]},
                {"path": "acme/web", "milestones": [dict(q4)], "issues": [item(5, "closed", "2026 Q4")]},
                {"path": "acme/old", "archived": True, "milestones": [dict(q4), {"title": "v0"}]},
                {"path": "solo/tool"}]}


class MilestoneTests(unittest.TestCase):
    """`milestone list|close|reopen` and `org milestone list|close|reopen` as gitbay's
    internal/control/milestone.go, orglabel.go and internal/store/milestones.go answer them."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        path = os.path.join(self.tmp.name, "forge.json")
        with open(path, "w") as f:
            json.dump(milestone_forge(), f)
        self.sim = Sim(path, "--clock", "frozen")

    def tearDown(self):
        self.sim.stop()
        self.tmp.cleanup()

    def titles(self, *argv):
        return [m["title"] for m in self.sim.data(*argv) or []]

    def test_rows_put_the_org_first_then_due_then_title_and_count_issues_and_mrs(self):
        rows = self.sim.data("milestone", "list", "acme/api", "--state", "all")
        self.assertEqual(rows, [
            {"title": "2026 Q4", "description": "org plan", "due": "2026-12-31", "state": "open", "org": True,
             "open": 2, "closed": 1},
            {"title": "v1", "due": "2026-06-01", "state": "closed", "open": 0, "closed": 0},
            {"title": "v2", "due": "2026-11-01", "state": "open", "open": 3, "closed": 3},
            {"title": "v3", "description": "after v2", "due": "2026-11-01", "state": "open", "open": 0,
             "closed": 0},
            {"title": "Someday", "state": "open", "open": 0, "closed": 0}])
        self.assertEqual(self.titles("milestone", "list", "acme/api"), ["2026 Q4", "v2", "v3", "Someday"])
        self.assertEqual(self.titles("milestone", "list", "acme/api", "--state", "closed"), ["v1"])

    def test_an_empty_list_is_empty_and_never_paged(self):
        # control/control.go emit sends a nil top-level slice as [] (it was null here before).
        status, _, body = self.sim.raw("GET", "/api/v1/read?argv=milestone&argv=list&argv=solo/tool")
        self.assertEqual(status, 200)
        self.assertIn(b'"data":[]', body)
        self.assertEqual(self.sim.data("milestone", "list", "acme/web", "--state", "closed"), [])
        _, _, env = self.sim.get("milestone", "list", "acme/api", "--limit", "1")
        self.assertEqual(env["exit_code"], 2)

    def test_list_refusals(self):
        for argv, code, text in [(("acme/api", "--state", "done"), 2, "usage: milestone list"),
                                 (("acme/nope",), 3, "not found"), ((), 2, "usage: milestone list")]:
            _, _, env = self.sim.get("milestone", "list", *argv)
            self.assertEqual(env.get("exit_code"), code, (argv, env))
            self.assertIn(text, env["error"])

    def test_close_and_reopen_answer_title_and_state_and_repeat_without_error(self):
        _, _, env = self.sim.post("milestone", "close", "acme/api", "v2")
        self.assertEqual(env["data"], {"milestone": "v2", "state": "closed"})
        self.assertEqual(self.titles("milestone", "list", "acme/api", "--state", "closed"), ["v1", "v2"])
        _, _, env = self.sim.post("milestone", "close", "acme/api", "v2")
        self.assertEqual((env["exit_code"], env["data"]), (0, {"milestone": "v2", "state": "closed"}))
        _, _, env = self.sim.post("milestone", "reopen", "acme/api", "v1")
        self.assertEqual(env["data"], {"milestone": "v1", "state": "open"})
        _, _, env = self.sim.post("milestone", "reopen", "acme/api", "v1")
        self.assertEqual((env["exit_code"], env["data"]), (0, {"milestone": "v1", "state": "open"}))
        self.assertEqual([(x["argv"][1], x["exit_code"], x["applied"]) for x in self.sim.journal_lines()],
                         [("close", 0, True), ("close", 0, False), ("reopen", 0, True), ("reopen", 0, False)])

    def test_close_refusals(self):
        cases = [(("close", "acme/api", "v9"), 3, 'no milestone "v9" in acme/api'),
                 (("close", "acme/api"), 2, "usage: milestone close <owner/name> <title>"),
                 (("reopen", "acme/api", "v1", "extra"), 2, "usage: milestone reopen"),
                 (("close", "acme/nope", "v1"), 3, "not found"),
                 (("close", "acme/old", "v0"), 4, "archived"),
                 (("close", "acme/api", "2026 Q4"), 1,
                  "2026 Q4 is an org milestone of acme; manage it with org milestone close acme 2026 Q4"),
                 (("reopen", "acme/web", "2026 Q4"), 1,
                  "2026 Q4 is an org milestone of acme; manage it with org milestone reopen acme 2026 Q4")]
        for argv, code, text in cases:
            status, _, env = self.sim.post("milestone", *argv)
            self.assertEqual((status, env.get("exit_code")), ({1: 500, 2: 400, 3: 404, 4: 403}[code], code),
                             (argv, env))
            self.assertIn(text, env["error"], argv)
        self.assertEqual(self.titles("milestone", "list", "acme/api"), ["2026 Q4", "v2", "v3", "Someday"])
        self.assertFalse(any(x["applied"] for x in self.sim.journal_lines()))

    def test_close_is_a_write(self):
        status, _, env = self.sim.get("milestone", "close", "acme/api", "v2")
        self.assertEqual((status, env["error"]), (400, "milestone close changes state; POST it to /api/v1/cmd"))
        _, _, env = self.sim.post("milestone", "close", "acme/api", "v2", token=READ_ONLY)
        self.assertEqual(env["exit_code"], 4)
        self.sim.control(faults=["500,command=milestone close"])
        status, _, _ = self.sim.post("milestone", "close", "acme/api", "v2")
        self.assertEqual(status, 500)
        self.sim.control(faults=[])
        self.assertEqual(self.titles("milestone", "list", "acme/api"), ["2026 Q4", "v2", "v3", "Someday"])
        self.assertEqual(self.sim.data("milestone", "list", "acme/api")[1]["open"], 3)
        self.assertEqual([(x["exit_code"], x["applied"]) for x in self.sim.journal_lines()], [(4, False),
                                                                                              (None, False)])

    def test_org_milestones_list_close_and_reopen_across_the_org(self):
        rows = self.sim.data("org", "milestone", "list", "acme")
        self.assertEqual(rows, [{"title": "2026 Q4", "description": "org plan", "due": "2026-12-31",
                                 "state": "open", "org": True, "open": 2, "closed": 1}])
        _, _, env = self.sim.post("org", "milestone", "close", "acme", "2026 Q4")
        self.assertEqual(env["data"], {"milestone": "2026 Q4", "state": "closed"})
        for repo in ("acme/api", "acme/web", "acme/old"):
            self.assertNotIn("2026 Q4", self.titles("milestone", "list", repo), repo)
        self.assertEqual(self.sim.data("org", "milestone", "list", "acme"), [])
        self.assertEqual(self.titles("org", "milestone", "list", "acme", "--state", "closed"), ["2026 Q4"])
        _, _, env = self.sim.post("org", "milestone", "reopen", "acme", "2026 Q4")
        self.assertEqual(env["data"], {"milestone": "2026 Q4", "state": "open"})
        self.assertEqual(self.titles("milestone", "list", "acme/web"), ["2026 Q4"])
        self.assertEqual([x["applied"] for x in self.sim.journal_lines()], [True, True])

    def test_org_milestone_refusals(self):
        cases = [(("list", "solo"), 3, 'no organization "solo"'), (("list", "acme", "--state", "x"), 2, "usage"),
                 (("close", "acme", "v2"), 3, 'no org milestone "v2" on acme'),
                 (("close", "nobody", "2026 Q4"), 3, 'no organization "nobody"'),
                 (("reopen", "acme"), 2, "usage: org milestone reopen <org> <title>")]
        for argv, code, text in cases:
            _, _, env = self.sim.post("org", "milestone", *argv)
            self.assertEqual(env.get("exit_code"), code, (argv, env))
            self.assertIn(text, env["error"], argv)


class MilestoneStateFileTests(unittest.TestCase):
    """What the forge-state file may say about milestones (docs/forge-state.md)."""

    def refused(self, doc, text):
        with self.assertRaises(gitbay_sim.StateError) as e:
            gitbay_sim.Forge(doc)
        self.assertIn(text, str(e.exception))

    def test_org_milestone_copies_must_agree_across_the_org(self):
        gitbay_sim.Forge(milestone_forge())
        doc = milestone_forge()
        doc["repos"][1]["milestones"] = []
        self.refused(doc, "acme/web lacks org milestone 2026 Q4 that acme/api lists")
        doc = milestone_forge()
        doc["repos"][2]["milestones"][0]["state"] = "closed"
        self.refused(doc, "org milestone 2026 Q4 of acme differs between acme/api and acme/old")
        doc = milestone_forge()
        doc["repos"][3]["milestones"] = [{"title": "mine", "org": True}]
        gitbay_sim.Forge(doc)

    def test_bad_milestones(self):
        for ms, text in [({"title": "v9", "state": "done"}, "bad state"), ({"title": ""}, "needs title"),
                         ({"title": "v9", "due": "2026-12-1"}, "YYYY-MM-DD"),
                         ({"title": "v9", "due": "2026-12-01\n"}, "YYYY-MM-DD"), ({"title": "v2"}, "v2 twice")]:
            doc = milestone_forge()
            doc["repos"][0]["milestones"].append(ms)
            self.refused(doc, text)

    def test_the_demo_forge_milestones(self):
        with open(DEMO) as f:
            forge = gitbay_sim.Forge(json.load(f))
        gitbay = forge.repo("krz/gitbay")
        rows = gitbay_sim.milestone_rows(forge, gitbay, gitbay["milestones"], "all")
        self.assertEqual([(m["title"], m["state"], m.get("due"), m.get("org", False), m["open"], m["closed"])
                          for m in rows],
                         [("Q3 2026", "open", "2026-09-30", True, 0, 0),
                          ("v1.37.0", "closed", "2026-10-31", False, 0, 0),
                          ("v1.37.1", "open", "2026-11-10", False, 0, 0),
                          ("v1.38.0", "open", "2026-11-15", False, 1, 0),
                          ("v1.39.0", "open", "2027-01-15", False, 0, 0),
                          ("Backlog", "open", None, False, 0, 0)])
        self.assertEqual([m["title"] for m in gitbay["milestones"]], [m["title"] for m in rows])
        runner = forge.repo("krz/runner")
        self.assertEqual([m["title"] for m in gitbay_sim.milestone_rows(forge, runner, runner["milestones"], "all")],
                         ["Q3 2026", "runner 1.0"])


class RateLimitTests(unittest.TestCase):
    def test_api_rate_429_with_retry_after(self):
        sim = Sim(FIXTURE, "--api-rate", "3")
        try:
            statuses = [sim.get("whoami")[0] for _ in range(3)]
            self.assertEqual(statuses, [200, 200, 200])
            status, hdrs, env = sim.get("whoami")
            self.assertEqual(status, 429)
            self.assertEqual(hdrs["Retry-After"], "20")
            self.assertEqual(env, {"protocol_version": 1, "error": "rate limited; retry in 20s"})
            self.assertEqual(sim.raw("GET", "/api/v1/read?argv=whoami", token="bad")[0], 401)
        finally:
            sim.stop()

    def test_time_scale_shortens_the_wait(self):
        # 3 a minute, 10 times faster: a token comes back every 2 s instead of 20 s. The four
        # requests must come within those 2 s to meet the empty bucket; at 40 times faster the
        # window was 0.5 s, which a loaded machine (the Swift build beside these tests) missed.
        sim = Sim(FIXTURE, "--api-rate", "3", "--time-scale", "10")
        try:
            for _ in range(3):
                sim.get("whoami")
            status, hdrs, _ = sim.get("whoami")
            self.assertEqual(status, 429)
            # What is left of one token's 2 s, rounded up: never the unscaled 20 s.
            self.assertIn(hdrs["Retry-After"], ("1", "2"))
            # Not a wait for an event: a client waits what Retry-After asks, which is the behaviour.
            time.sleep(int(hdrs["Retry-After"]))
            self.assertEqual(sim.get("whoami")[0], 200)
        finally:
            sim.stop()

    def test_account_write_limiter_is_exit_4_without_retry_after(self):
        sim = Sim(FIXTURE, "--write-rate", "2")
        try:
            for _ in range(2):
                self.assertEqual(sim.post("issue", "label", REPO, "213", "--add", "x")[2]["exit_code"], 0)
            status, hdrs, env = sim.post("issue", "label", REPO, "213", "--add", "x")
            self.assertEqual((status, env["exit_code"]), (403, 4))
            self.assertRegex(env["error"], r"^too many writes: 2 a minute per account; try again in \d+s$")
            self.assertNotIn("Retry-After", hdrs)
            self.assertEqual(sim.get("whoami")[0], 200)
        finally:
            sim.stop()


class PagingTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        path = os.path.join(cls.tmp.name, "forge.json")
        doc = generate_forge.generate(1, 1000, 20, 120, 3, "2026-11-29T12:00:00.000Z", "triage-bot")
        with open(path, "w") as f:
            json.dump(doc, f)
        cls.sim = Sim(path, "--api-rate", "-1")

    @classmethod
    def tearDownClass(cls):
        cls.sim.stop()
        cls.tmp.cleanup()

    def test_1000_issues_in_5_pages_with_descending_cursors(self):
        seen, cursor, pages, keys = [], None, 0, []
        while True:
            argv = ["issue", "list", REPO, "--state", "all", "--limit", "200"]
            if cursor:
                argv += ["--cursor", cursor]
            page = self.sim.data(*argv)
            pages += 1
            seen += [r["number"] for r in page["items"]]
            cursor = page.get("next")
            if not cursor:
                break
            keys.append(int(base64.urlsafe_b64decode(cursor + "==").decode().split(":")[1]))
        self.assertEqual(pages, 5)
        self.assertEqual(len(seen), 1000)
        self.assertEqual(seen, sorted(set(seen), reverse=True))
        self.assertEqual(keys, sorted(keys, reverse=True))
        self.assertEqual(len(set(keys)), 4)

    def test_query_pages_cover_every_open_issue_once(self):
        seen, cursor = [], None
        while True:
            argv = ["issue", "list", "--q", "repo:krz/gitbay is:open", "--limit", "150"]
            if cursor:
                argv += ["--cursor", cursor]
            page = self.sim.data(*argv)
            seen += [r["number"] for r in page["items"]]
            cursor = page.get("next")
            if not cursor:
                break
        expected = [r["number"] for r in self.sim.data("issue", "list", REPO)]
        self.assertEqual(sorted(seen), sorted(expected))
        self.assertEqual(len(seen), len(set(seen)))

    def test_generated_state_is_valid_and_deterministic(self):
        a = generate_forge.generate(2, 30, 12, 40, 9, "2026-11-29T12:00:00.000Z", "triage-bot")
        b = generate_forge.generate(2, 30, 12, 40, 9, "2026-11-29T12:00:00.000Z", "triage-bot")
        self.assertEqual(json.dumps(a, sort_keys=True), json.dumps(b, sort_keys=True))
        builds = self.sim.data("build", "list", REPO, "--limit", "200")["items"]
        self.assertEqual(len(builds), 120)
        mrs = self.sim.data("mr", "list", REPO, "--state", "all")
        self.assertEqual(len(mrs), 20)


class GeneratedMilestoneTests(unittest.TestCase):
    """The generated forges' milestones: valid, in gitbay's order, with overdue empty ones, and drawn
    apart from everything else."""

    ARGS = (5, 40, 8, 20, 3, "2026-11-29T12:00:00.000Z", "triage-bot")

    def test_milestones_are_valid_listed_in_order_and_some_are_overdue_and_empty(self):
        forge = gitbay_sim.Forge(generate_forge.generate(*self.ARGS))
        overdue_empty = []
        for r in forge.repos:
            rows = gitbay_sim.milestone_rows(forge, r, r["milestones"], "all")
            self.assertEqual([m["title"] for m in r["milestones"]], [m["title"] for m in rows], r["path"])
            titles = {m["title"] for m in rows}
            self.assertTrue(all(it.get("milestone", "v1.1.0") in titles for it in r["issues"]))
            overdue_empty += [(r["path"], m["title"]) for m in rows if m["state"] == "open" and not m["open"]
                              and not m.get("org") and m.get("due", "9999") < "2026-11-22"]
            self.assertTrue(any(m["open"] for m in rows), r["path"])
        self.assertGreaterEqual(len(overdue_empty), len(forge.repos))

    def test_milestones_leave_every_other_byte_alone(self):
        with_them = generate_forge.generate(*self.ARGS)
        real = generate_forge.milestone_list
        generate_forge.milestone_list = lambda *a: []
        try:
            without = generate_forge.generate(*self.ARGS)
        finally:
            generate_forge.milestone_list = real
        for r in with_them["repos"]:
            self.assertTrue(r.pop("milestones"))
        for r in without["repos"]:
            r.pop("milestones")
        self.assertEqual(json.dumps(with_them, sort_keys=True), json.dumps(without, sort_keys=True))


def revision_forge(**mr):
    """One repository with one open MR; `mr` adds or replaces the MR's keys."""
    m = {"number": 1, "title": "feature", "state": "open", "author": "alice", "source": "feat", "target_ref": "main",
         "head_sha": "b" * 40, "created_at": "2026-11-01T00:00:00Z"}
    m.update(mr)
    return {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot",
            "repos": [{"path": "krz/app", "branches": {"main": "a" * 40, "feat": "b" * 40}, "merge_requests": [m]}]}


class RevisionStateFileTests(unittest.TestCase):
    """An MR's `revisions` in the forge-state file: gitbay's mr_heads rows (store/mrs.go MRHeads;
    internal/store/migrations/0039_mr_head_history.up.sql), kept across a dump and a reload."""

    def revisions(self, doc):
        f = gitbay_sim.Forge(json.loads(json.dumps(doc)))
        dumped = f.dump(f.now)
        self.assertEqual(gitbay_sim.Forge(json.loads(json.dumps(dumped))).dump(f.now), dumped)
        return dumped["repos"][0]["merge_requests"][0]["revisions"]

    def test_a_merge_request_without_revisions_gets_its_opening_head(self):
        # guess: store CreateMR's opening row, stamped with the MR's own created_at.
        self.assertEqual(self.revisions(revision_forge()),
                         [{"sha": "b" * 40, "created_at": "2026-11-01T00:00:00.000Z"}])
        self.assertEqual(self.revisions(revision_forge(head_sha="")), [])  # CreateMR records no empty head

    def test_revisions_load_as_given_and_a_reply_pasted_in_loads(self):
        given = [{"n": 1, "sha": "b" * 40, "created_at": "2026-11-01T00:00:00Z"},
                 {"n": 2, "sha": "c" * 40, "base_sha": "a" * 40, "created_at": "2026-11-02T00:00:00.5Z"},
                 {"n": 3, "sha": "b" * 40, "base_sha": "", "created_at": "2026-11-02T00:00:00.500Z", "current": True}]
        self.assertEqual(self.revisions(revision_forge(revisions=given)), [
            {"sha": "b" * 40, "created_at": "2026-11-01T00:00:00.000Z"},
            {"sha": "c" * 40, "base_sha": "a" * 40, "created_at": "2026-11-02T00:00:00.500Z"},
            {"sha": "b" * 40, "created_at": "2026-11-02T00:00:00.500Z"}])
        self.assertEqual(self.revisions(revision_forge(head_sha="", revisions=[])), [])

    def test_bad_revisions_are_refused(self):
        b, c = "b" * 40, "c" * 40
        for revisions in ({"sha": b}, [{"created_at": "2026-11-01T00:00:00Z"}],
                          [{"sha": "not hex", "created_at": "2026-11-01T00:00:00Z"}],
                          [{"sha": b, "created_at": "yesterday"}],
                          [{"sha": b, "created_at": "2026-11-01T00:00:00Z", "pusher": "alice"}],
                          [{"sha": b, "created_at": "2026-11-01T00:00:00Z", "base_sha": 7}],
                          [{"sha": c, "created_at": "2026-11-01T00:00:00Z"}],  # not the head
                          [],  # the head has no revision
                          [{"sha": c, "created_at": "2026-11-02T00:00:00Z"},
                           {"sha": b, "created_at": "2026-11-01T00:00:00Z"}],  # earlier than the one before
                          [{"sha": b, "created_at": "2026-11-01T00:00:00Z"},
                           {"sha": b, "created_at": "2026-11-02T00:00:00Z"}]):  # an unchanged head twice
            with self.assertRaises(gitbay_sim.StateError, msg=repr(revisions)):
                gitbay_sim.Forge(revision_forge(revisions=revisions))

    def test_a_pushed_revision_survives_the_state_file_and_a_reload(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "forge.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(revision_forge(), f)
            sim = Sim(path, "--clock", "frozen")
            try:
                sim.control(advance_seconds=1.5, push={"repo": "krz/app", "branch": "feat", "sha": "c" * 40,
                                                       "actor": "cmc"})
                before = sim.data("mr", "revisions", "krz/app", "1")
                self.assertEqual([r["sha"] for r in before], ["b" * 40, "c" * 40])
                self.assertEqual(before[1]["created_at"], "2026-11-29T12:00:01.500Z")
                state = json.loads(sim.raw("GET", "/_sim/state")[2])
                self.assertEqual(state["repos"][0]["merge_requests"][0]["revisions"][1],
                                 {"sha": "c" * 40, "base_sha": "a" * 40, "created_at": "2026-11-29T12:00:01.500Z"})
                sim.control(state=state)
                self.assertEqual(sim.data("mr", "revisions", "krz/app", "1"), before)
                self.assertNotIn("revisions", sim.data("mr", "show", "krz/app", "1"))  # not part of mr show
            finally:
                sim.stop()


class RevisionAndRevokeRegistryTests(unittest.TestCase):
    """The registry copy's rows of `mr revisions` (control/mr.go init, runMRRevisions) and
    `repo access revoke` (control/repo.go init, runAccessRevoke) against the simulated commands."""

    def test_the_rows_match_the_simulated_commands(self):
        path = os.path.join(HERE, "..", "GitbayKitTests", "Fixtures", "gitbay-registry.json")
        with open(path, encoding="utf-8") as f:
            registry = json.load(f)
        for name, read_only in (("mr revisions", True), ("repo access revoke", False)):
            self.assertIn(name, registry["known_paths"])
            entry = next(c for c in registry["commands"] if c["path"] == name)
            spec = gitbay_sim.SPECS[tuple(name.split())]
            self.assertEqual((entry["read_only"], entry["reads_stdin"], entry["parser"], entry["flags"]),
                             (read_only, spec.reads_stdin, spec.parser, []))
            self.assertEqual(spec.read_only, read_only)
            self.assertEqual(entry["positional_count"], {"min": 2, "max": spec.pos[1]})
            self.assertTrue(spec.usage.startswith(name + " <owner/name> "), spec.usage)
        self.assertFalse(gitbay_sim.is_read_only(("repo", "access", "revoke")))
        self.assertTrue(gitbay_sim.is_read_only(("mr", "revisions")))


if __name__ == "__main__":
    unittest.main()


class ExitWithStdinTest(unittest.TestCase):
    """--exit-with-stdin: the simulator stops when its parent's end of the pipe closes."""

    @staticmethod
    def reads_again(proc, timeout=10.0):
        """Whether, within `timeout`, the input written so far has been taken from the pipe and a
        thread of `proc` waits in a pipe read again: the point past which a reader that stops
        early has stopped (Linux: FIONREAD on the pipe, the threads' wchan)."""
        import fcntl
        import struct
        import termios
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = struct.unpack("i", fcntl.ioctl(proc.stdin.fileno(), termios.FIONREAD, b"\0" * 4))[0]
            tasks = "/proc/%d/task" % proc.pid
            waits = []
            for task in os.listdir(tasks) if os.path.isdir(tasks) else []:
                try:
                    with open(os.path.join(tasks, task, "wchan"), encoding="ascii") as f:
                        waits.append(f.read())
                except OSError:
                    pass
            if left == 0 and any("pipe_read" in wait for wait in waits):
                return True
            time.sleep(0.01)
        return False

    def test_it_stops_at_the_end_of_its_input_and_not_before(self):
        with tempfile.TemporaryDirectory() as tmp:
            state = os.path.join(tmp, "state.json")
            with open(state, "w", encoding="utf-8") as f:
                json.dump({"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "bot",
                           "repos": []}, f)
            proc = subprocess.Popen([sys.executable, SIM, "--state", state, "--port", "0", "--exit-with-stdin"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            try:
                self.assertTrue(proc.stdout.readline().startswith(b"http://"))
                # Input that is not its end: once the simulator has taken it, it waits for more.
                proc.stdin.write(b"more\n")
                proc.stdin.flush()
                self.assertTrue(self.reads_again(proc), "the simulator stopped reading before the end of its input")
                self.assertIsNone(proc.poll())
                proc.stdin.close()
                self.assertEqual(proc.wait(timeout=10), 0)
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                proc.stdout.close()


def commits_forge(commits=None, **repo):
    r = {"path": "krz/app", "branches": {"main": "a" * 40}}
    if commits is not None:
        r["commits"] = commits
    r.update(repo)
    return {"format": "gitbay-forge-state/1", "now": "2026-11-29T12:00:00.000Z", "me": "triage-bot", "repos": [r]}


class CommitStateFileTests(unittest.TestCase):
    """A repository's `commits` in the forge-state file (docs/forge-state.md, Commits): the files at
    each commit, which `repo tree` and `repo cat` read; an older file without them loads unchanged."""

    def dumped(self, doc):
        f = gitbay_sim.Forge(json.loads(json.dumps(doc)))
        out = f.dump(f.now)
        self.assertEqual(gitbay_sim.Forge(json.loads(json.dumps(out))).dump(f.now), out)
        return out

    def test_a_file_without_commits_loads_and_dumps_unchanged(self):
        with open(FIXTURE, encoding="utf-8") as fh:
            doc = json.load(fh)
        dumped = self.dumped(doc)
        self.assertTrue(all("commits" not in r for r in dumped["repos"]))
        self.assertEqual([r.get("branches") for r in dumped["repos"]], [r.get("branches") for r in doc["repos"]])

    def test_commits_dump_back_as_given(self):
        commits = {"a" * 40: {"files": {"x/y": "text\n", "bin": {"base64": "AAE="}, "run": {"content": "#!", "mode":
                                                                                           "100755"}}},
                   "b" * 40: {"parents": ["a" * 40], "files": {}, "message": "empty it"}}
        self.assertEqual(self.dumped(commits_forge(commits))["repos"][0]["commits"], commits)

    def test_bad_commits_are_refused(self):
        for commits in ([], {"abc": {"files": {}}}, {"a" * 40: {"files": {"/x": "a"}}},
                        {"a" * 40: {"files": {"x/../y": "a"}}}, {"a" * 40: {"files": {"x": "a", "x/y": "b"}}},
                        {"a" * 40: {"files": {"x": {"base64": "!!"}}}}, {"a" * 40: {"files": {"x": {"content": "a",
                                                                                                    "mode": "644"}}}},
                        {"a" * 40: {"files": {"x": {"content": "a", "base64": "YQ=="}}}},
                        {"a" * 40: {"files": {}, "parents": "b" * 40}}, {"a" * 40: {"files": {}, "tree": "x"}}):
            with self.assertRaises(gitbay_sim.StateError, msg=commits):
                gitbay_sim.Forge(commits_forge(commits))

    def test_a_commit_the_file_does_not_describe_has_no_files(self):
        # guess: a branch tip of an older file reads as an empty tree.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "state.json")
            with open(path, "w", encoding="utf-8") as fh:
                json.dump(commits_forge(), fh)
            sim = Sim(path, "--clock", "frozen")
            try:
                self.assertEqual(sim.data("repo", "tree", "krz/app")["entries"], [])
                status, _, env = sim.get("repo", "cat", "krz/app", ".gitbay/bot.yml")
                self.assertEqual((status, env["error"]), (404, 'no such file ".gitbay/bot.yml" in krz/app at main'))
            finally:
                sim.stop()


class ReadRegistryTests(unittest.TestCase):
    """The registry copy's rows of `mr diff` (control/mr.go init), `repo refs`, `repo cat` and `repo
    tree` (control/read.go init) against the simulated commands."""

    def test_the_rows_match_the_simulated_commands(self):
        path = os.path.join(HERE, "..", "GitbayKitTests", "Fixtures", "gitbay-registry.json")
        with open(path, encoding="utf-8") as f:
            registry = json.load(f)
        for name in ("mr diff", "repo refs"):
            entry = next(c for c in registry["commands"] if c["path"] == name)
            spec = gitbay_sim.SPECS[tuple(name.split())]
            self.assertEqual((entry["read_only"], entry["reads_stdin"], entry["parser"], entry["flags"]),
                             (spec.read_only, spec.reads_stdin, spec.parser, []))
            self.assertEqual(entry["server_positional_check"], spec.check)
            self.assertEqual(entry["positional_count"], {"min": spec.pos[0], "max": spec.pos[1]})
        # Their rows (readArgs: --ref the one flag, read-only) against the simulator's read_args.
        for name, positionals in (("repo cat", (2, 2)), ("repo tree", (1, 2))):
            self.assertIn(name, registry["known_paths"])
            self.assertTrue(gitbay_sim.is_read_only(tuple(name.split())))
            entry = next(c for c in registry["commands"] if c["path"] == name)
            self.assertEqual((entry["read_only"], entry["reads_stdin"], entry["parser"]), (True, False, "read_args"))
            self.assertEqual([f["name"] for f in entry["flags"]], ["--ref"])
            self.assertEqual((entry["positional_count"]["min"], entry["positional_count"]["max"]), positionals)
