"""Seed 000 acceptance check against a running Plangate, as a Python Agents Planning System
client would use it. Standard library only.

    python3 e2e/seed000/roundtrip.py BASE_URL [TOKEN]     (or PLANGATE_TOKEN in the environment)

It creates a plan in seed 000's own spellings (l2_task tasks of every sub_type, tool_call,
a client timestamp, free-form estimate_data), reads it back, loads it with the seed's
dataclasses, checks what came back, saves it unchanged through to_dict and checks the
content hash did not move; then asks /process-phase-1-task for a plan and loads every task
with the seed's `PlannerTask(**task)`. Exits 1 with the failed check named.
"""

import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from datetime import datetime

sys.dont_write_bytecode = True  # no __pycache__ left in the repository by a test run
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from seed000_dataclasses import PlannerTask, TaskData  # noqa: E402

SEED_SUB_TYPES = {"agent", "tools", "llm", "dsl"}
CLIENT_TIME = "2026-01-02T03:04:05.123456"


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def call(base, token, method, path, body=None):
    data = None if body is None else json.dumps(body).encode("utf-8")
    request = urllib.request.Request(base.rstrip("/") + path, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        text = error.read().decode("utf-8", "replace")
        raise CheckFailed(f"{method} {path} answered {error.code}: {text[:2000]}") from None


def the_plan():
    return {
        "task_id": "seed000-roundtrip",
        "task_input_data": {"job_goal": {"objective": "Summarize research papers"}},
        "creation_time": CLIENT_TIME,
        "update_time": CLIENT_TIME,
        "original_job_data": {"job_objectives": {"accuracy": "high"}},
        "planned_tasks": [
            {
                "task_id": "fetch",
                "description": "Fetch the papers",
                "execution_type": "l2_task",
                "tool_id": "papers_repository",
                "parameters": {"sub_type": "tools"},
                "arguments": {"limit": 3},
                "estimate_data": "about a second, says the planner",
                "creation_time": CLIENT_TIME,
                "last_update_time": CLIENT_TIME,
            },
            {
                "task_id": "summarise",
                "description": "Summarise the papers",
                "execution_type": "l2_task",
                "function_id": "gpt-4",
                "parameters": {"sub_type": "llm", "model": "gpt-4"},
                "dependencies": ["fetch"],
                "estimate_data": {"latency_ms": 6000, "notes": {"source": "last run", "samples": [1, 2.5]}},
                "mark_replan": True,
                "creation_time": CLIENT_TIME,
                "last_update_time": CLIENT_TIME,
            },
            {
                "task_id": "review",
                "description": "Review the summary",
                "execution_type": "l2_task",
                "agent_id": "reviewer-agent",
                "parameters": {"sub_type": "agent"},
                "dependencies": ["summarise"],
                "creation_time": CLIENT_TIME,
                "last_update_time": CLIENT_TIME,
            },
            {
                "task_id": "assemble",
                "description": "Assemble the report",
                "execution_type": "l2_task",
                "function_id": "report_assembly_workflow",
                "parameters": {"sub_type": "dsl"},
                "dependencies": ["review"],
                "creation_time": CLIENT_TIME,
                "last_update_time": CLIENT_TIME,
            },
            {
                # Timestamps left out: Plangate fills them in.
                "task_id": "store",
                "description": "Query API and store result.",
                "execution_type": "tool_call",
                "tool_id": "papers_repository",
                "parameters": {"url": "http://api/endpoint"},
                "dependencies": ["assemble"],
            },
        ],
    }


def check_loaded(sent, task_data):
    tasks = {t.task_id: t for t in task_data.planned_tasks}
    check(list(tasks) == [t["task_id"] for t in sent["planned_tasks"]], f"task ids changed: {list(tasks)}")
    for original in sent["planned_tasks"]:
        task = tasks[original["task_id"]]
        check(task.execution_type == original["execution_type"],
              f"{task.task_id}: execution_type came back {task.execution_type!r}, sent {original['execution_type']!r}")
        check(task.parameters == original.get("parameters", {}),
              f"{task.task_id}: parameters came back {task.parameters!r}")
        check(task.estimate_data == original.get("estimate_data"),
              f"{task.task_id}: estimate_data came back {task.estimate_data!r}, sent {original.get('estimate_data')!r}")
        check(task.mark_replan == original.get("mark_replan", False), f"{task.task_id}: mark_replan came back {task.mark_replan!r}")
        now = datetime.utcnow()
        for name in ("creation_time", "last_update_time"):
            value = getattr(task, name)
            check(isinstance(value, datetime), f"{task.task_id}.{name} did not load as a datetime: {value!r}")
            check(value.tzinfo is None, f"{task.task_id}.{name} is not a naive UTC datetime: {value.isoformat()}")
            # Comparable with utcnow(): a naive datetime raises TypeError against an aware one.
            check(value <= now, f"{task.task_id}.{name} is in the future: {value.isoformat()} > {now.isoformat()}")
            if name in original:
                check(value.isoformat() == original[name], f"{task.task_id}.{name} came back as {value.isoformat()}, sent {original[name]}")
    for name in ("creation_time", "update_time"):
        value = getattr(task_data, name)
        check(isinstance(value, datetime) and value.tzinfo is None and value.isoformat() == CLIENT_TIME,
              f"TaskData.{name} came back as {value!r}")
    filled = tasks["store"].creation_time
    check(abs((datetime.utcnow() - filled).total_seconds()) < 24 * 3600,
          f"store.creation_time, filled in by Plangate, is not about now in UTC: {filled.isoformat()}")


def check_phase1(base, token):
    payload = {
        "search_id": "5d3f8a0e-1c2b-4e7a-9f10-000000000001",
        "phase_1_data": {
            "task_input_data": "Get facilities in Berlin",
            "n_history_samples": 0,
            "llm_data": {"model": "gpt-4"},
        },
    }
    status, answer = call(base, token, "POST", "/api/behavior-controller/process-phase-1-task", payload)
    check(answer.get("success") is True, f"phase 1 did not succeed: {answer!r}")
    check(isinstance(answer.get("data"), list) and answer["data"], f"phase 1 gave no tasks: {answer!r}")
    for raw in answer["data"]:
        try:
            task = PlannerTask(**raw)
        except TypeError as error:
            raise CheckFailed(f"phase 1 task does not load with PlannerTask(**task): {error}; keys {sorted(raw)}") from None
        check(task.execution_type == "l2_task", f"phase 1 task {task.task_id}: execution_type is {task.execution_type!r}; seed 000's loop runs only l2_task")
        check(task.parameters.get("sub_type") in SEED_SUB_TYPES,
              f"phase 1 task {task.task_id}: parameters.sub_type is {task.parameters.get('sub_type')!r}, not one of {sorted(SEED_SUB_TYPES)}")
        datetime.fromisoformat(raw["creation_time"])
    return len(answer["data"])


def sha256_of(value):
    """The README's H(x): SHA-256 of the canonical JSON (exact for these plans: keys in the BMP, no floats that JSON would write differently)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def recipe_hash(document):
    """The content hash, version 2, recomputed as the README's recipe says, with nothing of Plangate's."""
    plan = dict(document["plan"], planned_tasks=[sha256_of(task) for task in document["plan"]["planned_tasks"]])
    return sha256_of({"hash_version": 2, "job": document["job"], "plan": plan, "subgraphs": document["subgraphs"]})


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    base = sys.argv[1]
    token = sys.argv[2] if len(sys.argv) > 2 else os.environ.get("PLANGATE_TOKEN", "")
    if not token:
        print("roundtrip: no token (argv[2] or PLANGATE_TOKEN)", file=sys.stderr)
        return 2
    try:
        sent = the_plan()
        status, created = call(base, token, "POST", "/api/plans", {"title": "Seed 000 round trip", "plan": sent})
        check(status == 201, f"POST /api/plans answered {status}")
        plan_id, first_hash = created["id"], created["content_hash"]
        print(f"created {plan_id} revision {created['revision']} hash {first_hash}")

        _, stored = call(base, token, "GET", f"/api/plans/{plan_id}")
        check(stored["content_hash"] == first_hash, "GET gave another content hash than POST")
        check(recipe_hash(stored) == first_hash, f"the recipe gives {recipe_hash(stored)}, not the content hash {first_hash}")
        print("content hash recomputed from the document by the README's recipe")
        task_data = TaskData.from_dict(stored["plan"])
        check_loaded(sent, task_data)
        print("loaded with TaskData.from_dict: execution_type, timestamps, estimate_data intact")

        _, saved = call(base, token, "PUT", f"/api/plans/{plan_id}",
                        {"base_revision": stored["revision"], "plan": task_data.to_dict(), "message": "Python round trip"})
        check(saved["content_hash"] == first_hash,
              f"to_dict + PUT changed the content hash: {first_hash} -> {saved['content_hash']}")
        _, again = call(base, token, "GET", f"/api/plans/{plan_id}")
        check(again["plan"] == stored["plan"], "the plan read after the PUT differs from the one read before it")
        print(f"saved unchanged as revision {saved['revision']}: hash kept")

        count = check_phase1(base, token)
        print(f"phase 1: {count} task(s) load with PlannerTask(**task), each with a seed sub_type")
    except CheckFailed as failure:
        print(f"roundtrip FAILED: {failure}", file=sys.stderr)
        return 1
    except (urllib.error.URLError, OSError) as error:
        print(f"roundtrip FAILED: cannot reach {base}: {error}", file=sys.stderr)
        return 1
    print("roundtrip OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
