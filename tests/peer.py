"""What the tests of the incumbents' unit-test cases share (tests/test_peer_cases.py,
tests/test_peer_reasoning.py): the verdict on one case (it agrees, or it is listed with the
reason SPEC decides otherwise and gives exactly its pin), what a message says, its replays at the
case's own chunks and every chunking, and the per-parser agreement table."""
from symphony.adapt import chat
from tests.common import check_conservation, check_well_formed, chunkings, replay


def summary(message):
    """What a chat message says: content, reasoning, (name, arguments) per call, finish."""
    m = message["message"]
    return {"content": m["content"], "reasoning": m["reasoning_content"],
            "calls": [[c["function"]["name"], c["function"]["arguments"]] for c in m["tool_calls"] or ()],
            "finish": message["finish_reason"]}


def check_verdict(case, problems, said, differences, pinned, pin=lambda said: said):
    """`problems` (the case's judge) is empty, or the case is listed in `differences` and `pin`
    of what symphony said is its entry in `pinned`."""
    reason = differences.get(case["id"])
    if reason is None:
        assert not problems, f"{case['id']} ({case['parser']}) differs from vLLM:\n  " + \
            "\n  ".join(problems) + f"\n  symphony says {said}"
    else:
        assert problems, f"{case['id']} is listed ({reason.split(':')[0]}) but now agrees with vLLM: " \
            "take it off DIFFERENCES and PINNED"
        assert pin(said) == pinned[case["id"]], f"{case['id']}: symphony's message changed from its pin"


def check_replays(case, new_parser, whole, prompt=None, **chunking):
    """Every replay of the case's output (its own chunks, when it has them, and `chunkings`) on a
    parser from `new_parser()` conserves the output, is well formed and gives the message `whole`."""
    plans = []
    if case.get("chunks") is not None:
        assert "".join(case["chunks"]) == case["output"], "the case's chunks do not join to its output"
        plans.append(("the case's chunks", case["chunks"]))
    for plan, pieces in plans + chunkings(case["output"], **chunking):
        events = replay(new_parser(), pieces, prompt=prompt)
        check_conservation(events, case["output"])
        check_well_formed(events)
        assert chat.message(events) == whole, f"{case['id']}: {plan} gives another message"


def agreement_table(cases, problems_of, differences, table_of, label="vLLM parser"):
    """Per parser: its table, cases, agreements, and listed differences by cause; a parser with a
    difference that is not listed says UNLISTED DIFFERENCES. `problems_of(case)` judges the whole
    parse, `table_of(parser)` names the table."""
    rows = {}
    for case in cases:
        row = rows.setdefault(case["parser"], {"cases": 0, "agree": 0, "listed": {}, "other": 0})
        row["cases"] += 1
        problems = problems_of(case)
        reason = differences.get(case["id"])
        if reason is not None:
            cause = reason.split(":")[0]
            row["listed"][cause] = row["listed"].get(cause, 0) + 1
        elif problems:
            row["other"] += 1
        else:
            row["agree"] += 1
    width = max([len(table_of(parser)) for parser in rows] + [13])
    header = f"{label:24} {'table':{width}} {'cases':>5} {'agree':>5} {'listed':>6}  by cause"
    lines = [header, "-" * len(header)]
    for parser in sorted(rows, key=lambda p: (table_of(p), p)):
        row = rows[parser]
        causes = ", ".join(f"{cause} {n}" for cause, n in sorted(row["listed"].items()))
        unlisted = f"  UNLISTED DIFFERENCES {row['other']}" if row["other"] else ""
        lines.append(f"{parser:24} {table_of(parser):{width}} {row['cases']:>5} {row['agree']:>5} "
                     f"{sum(row['listed'].values()):>6}  {causes}{unlisted}")
    lines.append(f"{'total':24} {'':{width}} {sum(r['cases'] for r in rows.values()):>5} "
                 f"{sum(r['agree'] for r in rows.values()):>5} "
                 f"{sum(sum(r['listed'].values()) for r in rows.values()):>6}")
    return "\n".join(lines)
