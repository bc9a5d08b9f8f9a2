"""The rule docs that `reflint rules` prints keep their examples as written."""

from ascend_reflint.check import all_rules


def test_continued_lines_in_examples_stay_continued() -> None:
    # A backslash-newline in a plain docstring joins the example's lines ("&&     cd …"): docs must be raw.
    joined = [rule.code for rule in all_rules() if "&&     " in rule.doc]
    assert joined == []
    rl003 = next(rule for rule in all_rules() if rule.code == "RL003")
    assert "MindSpeed.git && \\\n    cd MindSpeed && git checkout f2b0977e" in rl003.doc
