"""The client against a running Plangate, as an executor would use it: an editor's token
submits a plan, a person's approval arrives while the client waits, the hand-off is verified
by the recipe and loaded with seed 000's dataclasses, the run goes through a webhook executor
served by `webhook_executor` (answering 202 and reporting the result signed), and forged or
tampered inputs are refused.

Run by e2e/python-client.ui.spec.ts, which provides (all required):
    PLANGATE_URL, PLANGATE_EDITOR_TOKEN, PLANGATE_APPROVER_TOKEN, PLANGATE_ADMIN_TOKEN,
    PLANGATE_EXECUTOR_SECRET_ENV (the variable the server reads the secret from) and
    PLANGATE_EXECUTOR_SECRET (its value).
"""

import copy
import json
import os
import sys
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from http.server import ThreadingHTTPServer

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "e2e", "seed000"))

from plangate import HandOffError, Plangate, PlangateError, verify_hand_off, webhook_executor  # noqa: E402
from seed000_dataclasses import TaskData  # noqa: E402

REQUIRED = ("PLANGATE_URL", "PLANGATE_EDITOR_TOKEN", "PLANGATE_APPROVER_TOKEN", "PLANGATE_ADMIN_TOKEN", "PLANGATE_EXECUTOR_SECRET_ENV", "PLANGATE_EXECUTOR_SECRET")


class LivePlangate(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        missing = [name for name in REQUIRED if not os.environ.get(name)]
        if missing:
            raise RuntimeError(f"these tests run against a Plangate: set {', '.join(missing)} (e2e/python-client.ui.spec.ts does)")
        url = os.environ["PLANGATE_URL"]
        cls.editor = Plangate(url, os.environ["PLANGATE_EDITOR_TOKEN"])
        cls.approver = Plangate(url, os.environ["PLANGATE_APPROVER_TOKEN"])
        cls.admin = Plangate(url, os.environ["PLANGATE_ADMIN_TOKEN"])
        cls.secret = os.environ["PLANGATE_EXECUTOR_SECRET"]
        cls.received = []

        def handle(task):
            cls.received.append(task)
            return {"echo": task["input"], "by": "python"}

        cls.executor = ThreadingHTTPServer(("127.0.0.1", 0), webhook_executor(cls.secret, handle, asynchronous=True))
        threading.Thread(target=cls.executor.serve_forever, daemon=True).start()
        cls.executor_url = f"http://127.0.0.1:{cls.executor.server_address[1]}/tasks"
        cls.workflow = f"py-executor-{uuid.uuid4().hex[:8]}"
        cls.admin.request(
            "PUT",
            f"/api/registry/dsl_workflows/{cls.workflow}",
            {"id": cls.workflow, "description": "A Python webhook executor", "endpoint": {"protocol": "webhook", "url": cls.executor_url, "secret_env": os.environ["PLANGATE_EXECUTOR_SECRET_ENV"]}},
        )

    @classmethod
    def tearDownClass(cls):
        cls.executor.shutdown()
        cls.admin.request("DELETE", f"/api/registry/dsl_workflows/{cls.workflow}")

    def plan(self):
        return {
            "task_id": f"py-{uuid.uuid4().hex[:8]}",
            "planned_tasks": [
                {"task_id": "publish", "description": "Publish the report", "execution_type": "dsl", "function_id": self.workflow, "arguments": {"report": "q3", "pages": 12}},
            ],
        }

    def approve_soon(self, submitted, delay=1.0):
        """A person (the approver's own token) approves while the client is waiting."""

        def approve():
            time.sleep(delay)
            self.approver.request("POST", f"/api/plans/{submitted['id']}/approve", {"revision": submitted["revision"], "content_hash": submitted["content_hash"]})

        thread = threading.Thread(target=approve)
        thread.start()
        return thread

    def test_submit_wait_verify_run_through_a_python_webhook_executor(self):
        submitted = self.editor.submit(self.plan(), title="Python client journey", reviewers=["approver"])
        self.assertTrue(submitted["review_url"].endswith(f"/plans/{submitted['id']}/review"))
        approving = self.approve_soon(submitted)
        self.assertEqual(self.editor.wait_for_decision(submitted["id"], timeout=60, poll_seconds=0.3), "approved")
        approving.join()

        hand_off = self.editor.approved(submitted["id"])
        self.assertEqual(hand_off["content_hash"], submitted["content_hash"])
        self.assertEqual([a["reviewer"] for a in hand_off["approvals"]], ["approver"])
        # Seed 000's own dataclasses load what was approved.
        task_data = TaskData.from_dict(hand_off["document"]["plan"])
        self.assertEqual([t.task_id for t in task_data.planned_tasks], ["publish"])
        self.assertEqual(task_data.planned_tasks[0].execution_type, "dsl")

        run_id = self.editor.start_run(submitted["id"], hand_off["revision"], hand_off["content_hash"])
        run = self.editor.wait_for_run(run_id, timeout=60)
        self.assertEqual(run["state"], "succeeded", json.dumps(run["tasks"]))
        task = next(t for t in run["tasks"] if t["task_id"] == "publish")
        self.assertEqual(task["output"], {"echo": {"report": "q3", "pages": 12}, "by": "python"})
        self.assertEqual([t["run_id"] for t in self.received if t["run_id"] == run_id], [run_id])

    def test_a_tampered_hand_off_is_refused(self):
        submitted = self.editor.submit(self.plan(), title="Python tamper check")
        self.approve_soon(submitted, delay=0).join()
        hand_off = self.editor.approved(submitted["id"])
        changed = copy.deepcopy(hand_off)
        changed["document"]["plan"]["planned_tasks"][0]["arguments"]["pages"] = 13
        with self.assertRaises(HandOffError):
            verify_hand_off(changed)
        swapped = copy.deepcopy(hand_off)
        swapped["resources"]["definitions"] = {}
        with self.assertRaises(HandOffError):
            verify_hand_off(swapped)

    def test_a_forged_task_never_reaches_the_handler(self):
        before = len(self.received)
        body = json.dumps({"run_id": "forged", "task_id": "publish", "input": {}, "result_url": "http://127.0.0.1:9/"}).encode("utf-8")
        request = urllib.request.Request(self.executor_url, data=body, method="POST")
        request.add_header("Content-Type", "application/json")
        request.add_header("X-Plangate-Timestamp", str(int(time.time())))
        request.add_header("X-Plangate-Signature", "sha256=" + "0" * 64)
        with self.assertRaises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=10)
        self.assertEqual(refused.exception.code, 401)
        self.assertEqual(len(self.received), before)

    def test_refusals_are_errors_with_plangate_s_code(self):
        with self.assertRaises(PlangateError) as error:
            self.editor.plan("no-such-plan-" + uuid.uuid4().hex[:6])
        self.assertEqual(error.exception.status, 404)
        with self.assertRaises(PlangateError) as error:
            Plangate(os.environ["PLANGATE_URL"], "pgt_not-a-token").plan("x")
        self.assertEqual(error.exception.status, 401)


if __name__ == "__main__":
    unittest.main()
