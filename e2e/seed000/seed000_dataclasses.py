"""Seed 000's PlannerTask and TaskData dataclasses, transcribed as the seed defines them,
plus the from_dict / to_dict the seed's examples call but do not show.

Kept faithful on purpose: `estimate_data = None` and `mark_replan = False` have no type
annotation in the seed, so they are class attributes, not dataclass fields, and
`PlannerTask(**task)` refuses them. `from_dict` therefore sets them on the instance after
construction, and `to_dict` writes them, so what Plangate stores comes back unchanged.
Standard library only.
"""

import uuid
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Dict, List, Optional


@dataclass
class PlannerTask:
    task_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    main_task_id: Optional[str] = ""
    description: Optional[str] = ""
    execution_type: Optional[str] = ""
    dependencies: List[str] = field(default_factory=list)
    tool_id: Optional[str] = None
    function_id: Optional[str] = None
    agent_id: Optional[str] = None
    parameters: Dict = field(default_factory=dict)
    arguments: Dict = field(default_factory=dict)
    instructions: Optional[str] = None
    convertor_code: Optional[str] = None
    estimate_data = None
    mark_replan = False
    status: str = "pending"
    output: Dict = field(default_factory=dict)
    creation_time: datetime = field(default_factory=datetime.utcnow)
    last_update_time: datetime = field(default_factory=datetime.utcnow)

    # Not dataclass fields in the seed (no annotation): carried beside the fields.
    EXTRA_ATTRIBUTES = ("estimate_data", "mark_replan")
    TIME_FIELDS = ("creation_time", "last_update_time")

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "PlannerTask":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names - set(cls.EXTRA_ATTRIBUTES)
        if unknown:
            raise TypeError(f"PlannerTask.from_dict: unknown keys {sorted(unknown)}")
        kwargs = {k: v for k, v in data.items() if k in names}
        for name in cls.TIME_FIELDS:
            if isinstance(kwargs.get(name), str):
                kwargs[name] = datetime.fromisoformat(kwargs[name])
        task = cls(**kwargs)
        for name in cls.EXTRA_ATTRIBUTES:
            if name in data:
                setattr(task, name, data[name])
        return task

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.isoformat() if isinstance(value, datetime) else value
        for name in self.EXTRA_ATTRIBUTES:
            out[name] = getattr(self, name)
        return out


@dataclass
class TaskData:
    task_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    task_input_data: Dict = field(default_factory=dict)
    completed_tasks: List[str] = field(default_factory=list)
    output_data: Dict = field(default_factory=dict)
    creation_time: datetime = field(default_factory=datetime.utcnow)
    update_time: datetime = field(default_factory=datetime.utcnow)
    planned_tasks: List[PlannerTask] = field(default_factory=list)
    status: str = "pending"
    original_job_data: Optional[Dict] = None

    TIME_FIELDS = ("creation_time", "update_time")

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "TaskData":
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise TypeError(f"TaskData.from_dict: unknown keys {sorted(unknown)}")
        kwargs = dict(data)
        for name in cls.TIME_FIELDS:
            if isinstance(kwargs.get(name), str):
                kwargs[name] = datetime.fromisoformat(kwargs[name])
        kwargs["planned_tasks"] = [PlannerTask.from_dict(t) for t in kwargs.get("planned_tasks", [])]
        return cls(**kwargs)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, datetime):
                value = value.isoformat()
            elif f.name == "planned_tasks":
                value = [t.to_dict() for t in value]
            out[f.name] = value
        return out
