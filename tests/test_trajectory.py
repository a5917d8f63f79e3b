import json

import pytest

from atf.agent.trajectory import ToolCall, Trajectory, read_jsonl, write_jsonl


def _traj(i):
    return Trajectory(
        problem=f"p{i}",
        messages=[{"role": "user", "content": f"p{i}"}],
        statement="theorem t : True := by sorry",
        syntax_ok=True,
        consistency_ok=i % 2 == 0,
        revisions=i,
        calls=[ToolCall("syntax_check", {"statement": "x"}, True, "ok")],
        completion_ids=[1, 2],
        completion_mask=[1, 0],
    )


def test_roundtrip_and_success(tmp_path):
    path = tmp_path / "t.jsonl"
    assert write_jsonl(path, [_traj(i) for i in range(3)]) == 3
    back = list(read_jsonl(path))
    assert [t.success for t in back] == [True, False, True]
    assert back[1].calls[0] == ToolCall("syntax_check", {"statement": "x"}, True, "ok")
    assert back[2].to_dict() == _traj(2).to_dict()


def test_truncated_last_line_is_skipped_but_corruption_inside_is_an_error(tmp_path):
    path = tmp_path / "t.jsonl"
    write_jsonl(path, [_traj(0), _traj(1)])
    text = path.read_text()
    path.write_text(text + json.dumps(_traj(2).to_dict())[:40])
    assert len(list(read_jsonl(path))) == 2
    lines = text.splitlines()
    path.write_text(lines[0][:30] + "\n" + lines[1] + "\n")
    with pytest.raises(ValueError, match=":1: not valid JSON"):
        list(read_jsonl(path))


def test_unknown_fields_are_rejected():
    row = _traj(0).to_dict() | {"extra": 1}
    with pytest.raises(ValueError, match="extra"):
        Trajectory.from_dict(row)
