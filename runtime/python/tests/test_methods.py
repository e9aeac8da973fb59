"""`sparkgen.methods()` holds the facts of `sparkgen methods --json`, the method guide's
recommendations included."""

import sparkgen


def test_methods_equal_the_command(cli):
    expected, code = cli("methods")
    assert code == 0
    methods = sparkgen.methods()
    assert [m.name for m in methods] == [r["name"] for r in expected["methods"]]
    for m, row in zip(methods, expected["methods"]):
        assert m.facts == row
        assert (m.family, m.stages, m.declared_order) == (
            row["family"], row["stages"], row["declared_order"])
        assert m.recommendation == (row["recommendation"] or {}).get("class")


def test_recommended_equal_the_command(cli):
    expected, code = cli("methods", "--recommended")
    assert code == 0
    recommended = sparkgen.methods(recommended=True)
    assert [m.name for m in recommended] == [r["name"] for r in expected["methods"]]
    assert all(m.recommended for m in recommended)
    picks = {m.kinds[0]: m.name for m in recommended if m.long_run_pick}
    assert picks == {k: v for k, v in expected["long_run"].items() if v is not None}


def test_every_method_runs_by_its_family_and_stages():
    """Each listed degenerate-Lagrangian method's (family, stages) is what solve takes."""
    problem = sparkgen.Problem.from_file(
        __import__("conftest").problem_path("lotka_volterra.toml"))
    for m in sparkgen.methods("degenerate_lagrangian", recommended=True):
        solution = sparkgen.solve(problem, m.family, m.stages, h=0.1, steps=3)
        assert solution.summary["stages"] == m.stages


def test_kind_filter():
    holonomic = sparkgen.methods("holonomic")
    assert {m.name for m in holonomic} >= {"Rattle", "Shake"}
    assert all("holonomic" in m.kinds for m in holonomic)
