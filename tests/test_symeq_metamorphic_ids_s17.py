"""`eval/symeq_metamorphic.py --ids FILE` probes only the listed statements (a round re-reads the statements whose
reading it changed, eval/symeq_reread/), with the probe's own bound and report."""

import pytest

import eval.symeq_metamorphic as probe
from atf.data.benchmarks import load_benchmark


def test_only_the_listed_statements_are_probed(tmp_path, capsys, monkeypatch):
    first = load_benchmark("minif2f", "test")[0].id
    ids = tmp_path / "ids.txt"
    ids.write_text(f"minif2f/test/{first}\nproofnet/valid/{first}\n", encoding="utf-8")
    seen = []
    real = probe.bounded

    def spy(golds, *a, **k):
        seen.extend(golds)
        return real(golds, *a, **k)

    monkeypatch.setattr(probe, "bounded", spy)
    assert probe.main(["--split", "test", "--benchmarks", "minif2f,proofnet", "--ids", str(ids)]) == 0
    out = capsys.readouterr().out
    assert len(seen) == 1 and "minif2f test: 1 gold statements" in out and "proofnet test: 0 gold statements" in out


@pytest.mark.parametrize("argv", [["--ids", "no/such/file"], ["--lang", "isabelle", "--ids", __file__]])
def test_a_bad_ids_argument_is_refused(argv):
    with pytest.raises(SystemExit):
        probe.options(argv)
