"""Plangate's Python client: submit a plan, wait for a person's decision, take the approved
hand-off (verified here, not trusted), run it, and execute its tasks as a webhook executor.

Standard library only. The hand-off is checked by the recipe in docs/formats.md
("Verifying a hand-off"): the content hash and the resources hash are recomputed from what
was received, and every approval must name both. Passkey signatures on approvals, when
present, are checked by `verify_approvals` (beside this file; it needs `cryptography`).

    from plangate import Plangate
    pg = Plangate("http://127.0.0.1:3000", token)
    plan = pg.submit({"planned_tasks": [...]}, title="Quarterly report")
    if pg.wait_for_decision(plan["id"], timeout=600) == "approved":
        hand_off = pg.approved(plan["id"])      # raises HandOffError if anything does not hold
        run_id = pg.start_run(plan["id"], hand_off["revision"], hand_off["content_hash"])
"""

import hashlib
import hmac
import json
import math
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler

DECIDED = ("approved", "changes_requested", "rejected")
FINISHED_RUN_STATES = ("succeeded", "failed", "cancelled", "needs_replan")
MAX_CLOCK_SKEW_SECONDS = 5 * 60
# A task Plangate sends is at most its 2 MB input plus the task itself.
MAX_TASK_BYTES = 4_000_000


class PlangateError(Exception):
    """Plangate refused a request: `status` is the HTTP status, `code` and `message` its error."""

    def __init__(self, status, code, message, body=None):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body


class HandOffError(Exception):
    """A hand-off that does not verify: it must not be run."""


# RFC 8785 (JSON Canonicalization Scheme): keys sorted by UTF-16 code units, no whitespace,
# strings and numbers as ECMAScript's JSON.stringify writes them.


def _number(value):
    if isinstance(value, bool):
        raise TypeError("booleans are not numbers")
    if isinstance(value, int):
        if abs(value) > 2**53:
            # ECMAScript has only doubles: larger integers are written as the double they round to.
            return _number(float(value))
        return str(value)
    if not math.isfinite(value):
        raise ValueError("NaN and Infinity have no JSON form")
    if value == 0:
        return "0"
    text = repr(value)
    mantissa, _, exponent = text.partition("e")
    if not exponent:
        # Python writes 1e16 and up in exponent form already; below that, a plain decimal.
        return mantissa[:-2] if mantissa.endswith(".0") else mantissa
    power = int(exponent)
    digits = mantissa.replace(".", "").lstrip("-")
    negative = mantissa.startswith("-")
    point = (mantissa.lstrip("-").find(".") if "." in mantissa else len(mantissa.lstrip("-"))) + power
    digits = digits.rstrip("0") or "0"
    sign = "-" if negative else ""
    if 0 < point <= 21:
        if len(digits) <= point:
            return sign + digits + "0" * (point - len(digits))
        return sign + digits[:point] + "." + digits[point:]
    if -6 < point <= 0:
        return sign + "0." + "0" * (-point) + digits
    exp = point - 1
    head = digits[0] + ("." + digits[1:] if len(digits) > 1 else "")
    return f"{sign}{head}e{'+' if exp > 0 else '-'}{abs(exp)}"


def canonical_json(value):
    """The RFC 8785 canonical JSON of a value read with json.loads."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (int, float)):
        return _number(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    if isinstance(value, dict):
        keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
        return "{" + ",".join(json.dumps(key, ensure_ascii=False) + ":" + canonical_json(value[key]) for key in keys) + "}"
    raise TypeError(f"{type(value).__name__} is not JSON")


def sha256_of(value):
    """H(x): "sha256:" and the hex SHA-256 of the canonical JSON of x."""
    return "sha256:" + hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def content_hash(document, hash_version=2):
    """The content hash of a hand-off's `document`, by the recipe for its hash_version."""
    if hash_version == 1:
        return sha256_of(document)
    plan = dict(document["plan"], planned_tasks=[sha256_of(task) for task in document["plan"]["planned_tasks"]])
    return sha256_of({"hash_version": 2, "job": document.get("job"), "plan": plan, "subgraphs": document.get("subgraphs")})


def verify_hand_off(hand_off, keys=None):
    """Raises HandOffError unless the hand-off holds together by the recipe. With `keys`
    (GET /api/keys) and `verify_approvals` importable, signed approvals are checked too."""
    recomputed = content_hash(hand_off["document"], hand_off.get("hash_version", 2))
    if recomputed != hand_off["content_hash"]:
        raise HandOffError(f"the document hashes to {recomputed}, not the content hash {hand_off['content_hash']}")
    resources = hand_off["resources"]
    resources_hash = sha256_of({"targets": resources["targets"], "definitions": resources["definitions"]})
    if resources_hash != resources["hash"]:
        raise HandOffError(f"the resources hash to {resources_hash}, not {resources['hash']}")
    approvals = hand_off.get("approvals") or []
    if not approvals:
        raise HandOffError("the hand-off carries no approval")
    for approval in approvals:
        if approval.get("decision") != "approved":
            raise HandOffError(f"the hand-off lists a {approval.get('decision')} decision by {approval.get('reviewer')} as an approval")
        if approval.get("content_hash") != hand_off["content_hash"] or approval.get("resources_hash") != resources["hash"]:
            raise HandOffError(f"the approval by {approval.get('reviewer')} names other hashes than the hand-off")
    if keys is not None and any(approval.get("signature") for approval in approvals):
        try:
            from verify_approvals import Failure, verify_document  # noqa: PLC0415 - optional: needs `cryptography`
        except ImportError as error:
            raise HandOffError(f"the approvals are signed, and their signatures cannot be checked here: {error}") from None
        try:
            ok, lines = verify_document(hand_off, keys)
        except Failure as failure:
            raise HandOffError(f"the approvals' signatures do not verify: {failure}") from None
        if not ok:
            raise HandOffError("the approvals' signatures do not verify: " + "; ".join(line for line in lines if line.startswith("FAIL")))
    return hand_off


class Plangate:
    """Plangate's REST API, as the holder of an API token (Authorization: Bearer) may use it."""

    def __init__(self, base_url, token, timeout=30):
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.timeout = timeout

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                text = response.read().decode("utf-8")
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            text = error.read().decode("utf-8", "replace")
            try:
                body = json.loads(text)
            except ValueError:
                body = {"error": {"code": "http", "message": text[:500]}}
            problem = body.get("error", {}) if isinstance(body, dict) else {}
            raise PlangateError(error.code, problem.get("code", "http"), problem.get("message", text[:500]), body) from None

    def submit(self, plan, title, reviewers=None, format=None):
        """Creates the plan (seed 000's TaskData, or any import format when `format` is given or
        `plan` is a string) and submits it for review. Returns id, revision, content_hash and review_url."""
        if format is not None or isinstance(plan, str):
            content = plan if isinstance(plan, str) else json.dumps(plan)
            created = self.request("POST", "/api/plans/import", {"title": title, "content": content, **({"format": format} if format else {})})
        else:
            created = self.request("POST", "/api/plans", {"title": title, "plan": plan})
        plan_id = created["id"]
        submitted = self.request("POST", f"/api/plans/{_segment(plan_id)}/submit", {"reviewers": list(reviewers)} if reviewers else None)
        return {
            "id": plan_id,
            "revision": submitted.get("revision", created.get("revision")),
            "content_hash": submitted.get("content_hash", created.get("content_hash")),
            "review_url": f"{self.base_url}/plans/{_segment(plan_id)}/review",
        }

    def plan(self, plan_id):
        return self.request("GET", f"/api/plans/{_segment(plan_id)}")

    def wait_for_decision(self, plan_id, timeout=300, poll_seconds=1.0):
        """The plan's status once a person has decided (approved, changes_requested, rejected).
        Raises TimeoutError if nobody has within `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            status = self.plan(plan_id)["status"]
            if status in DECIDED:
                return status
            if time.monotonic() >= deadline:
                raise TimeoutError(f"plan {plan_id} is still {status} after {timeout} s")
            time.sleep(poll_seconds)

    def approved(self, plan_id, keys=None):
        """The approved hand-off, verified by the recipe (HandOffError if it does not hold)."""
        hand_off = self.request("GET", f"/api/plans/{_segment(plan_id)}/approved")
        if keys is None and any(approval.get("signature") for approval in hand_off.get("approvals") or []):
            keys = self.request("GET", "/api/keys")
        return verify_hand_off(hand_off, keys)

    def start_run(self, plan_id, revision, content_hash, continue_from=None):
        """Runs exactly this approved revision; returns the run id."""
        body = {"revision": revision, "content_hash": content_hash}
        if continue_from:
            body["continue_from"] = continue_from
        return self.request("POST", f"/api/plans/{_segment(plan_id)}/runs", body)["run_id"]

    def run(self, run_id):
        return self.request("GET", f"/api/runs/{_segment(run_id)}")

    def wait_for_run(self, run_id, timeout=300, poll_seconds=0.5):
        """The run once it has finished or stopped for a replan."""
        deadline = time.monotonic() + timeout
        while True:
            run = self.run(run_id)
            if run["state"] in FINISHED_RUN_STATES:
                return run
            if time.monotonic() >= deadline:
                raise TimeoutError(f"run {run_id} is still {run['state']} after {timeout} s")
            time.sleep(poll_seconds)


def _segment(value):
    return urllib.parse.quote(str(value), safe="")


def _signature(secret, text):
    return "sha256=" + hmac.new(secret.encode("utf-8"), text.encode("utf-8"), hashlib.sha256).hexdigest()


def check_task_signature(secret, timestamp, signature, body, now=None):
    """True when a task Plangate sent is signed with `secret` ("<timestamp>.<body>") within the clock-skew window."""
    if not timestamp or not signature or not timestamp.isdigit():
        return False
    if abs((now if now is not None else time.time()) - int(timestamp)) > MAX_CLOCK_SKEW_SECONDS:
        return False
    return hmac.compare_digest(_signature(secret, f"{timestamp}.{body}"), signature)


def result_signature(secret, path, attempt, timestamp, body):
    """X-Plangate-Signature of a result posted back: over POST, the result path, the attempt, the timestamp and the body."""
    return _signature(secret, f"POST\n{path}\n{attempt}\n{timestamp}\n{body}")


def report_result(result_url, attempt, secret, output=None, error=None, timeout=30):
    """Posts a task's result to its result URL, signed by the recipe in docs/security.md."""
    body = json.dumps({"state": "failed", "error": str(error)[:2000]} if error is not None else {"state": "succeeded", "output": output})
    timestamp = str(int(time.time()))
    path = urllib.parse.urlsplit(result_url).path
    request = urllib.request.Request(result_url, data=body.encode("utf-8"), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Plangate-Timestamp", timestamp)
    request.add_header("X-Plangate-Attempt", attempt)
    request.add_header("X-Plangate-Signature", result_signature(secret, path, attempt, timestamp, body))
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.loads(response.read().decode("utf-8"))


def webhook_executor(secret, handle, asynchronous=False):
    """A request handler class for http.server that executes Plangate's webhook tasks.

    Each POST is checked first (timestamp within 5 minutes, X-Plangate-Signature under
    `secret`): anything else is answered 401 and `handle` is not called. `handle(task)` gets
    the task as sent ({run_id, task_id, generation, attempt, task, input, result_url}) and
    returns its output; raising fails the task. Synchronous: the output is the 200 answer.
    Asynchronous: 202 at once, then the result is reported to result_url, signed.
    """

    class WebhookExecutor(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802 - http.server's name
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_TASK_BYTES:
                return self._answer(413, {"error": "too large"})
            body = self.rfile.read(length).decode("utf-8")
            if not check_task_signature(secret, self.headers.get("X-Plangate-Timestamp"), self.headers.get("X-Plangate-Signature"), body):
                return self._answer(401, {"error": "bad signature"})
            task = json.loads(body)
            attempt = self.headers.get("X-Plangate-Attempt", "")
            if not asynchronous:
                try:
                    return self._answer(200, handle(task))
                except Exception as error:  # noqa: BLE001 - any failure of the task is its error
                    return self._answer(500, {"error": str(error)})
            self._answer(202, {"accepted": True})

            def work():
                try:
                    report_result(task["result_url"], attempt, secret, output=handle(task))
                except Exception as error:  # noqa: BLE001
                    report_result(task["result_url"], attempt, secret, error=error)

            threading.Thread(target=work, daemon=True).start()

        def _answer(self, status, value):
            data = json.dumps(value).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    return WebhookExecutor
