"""How the check stage's time grows with the size of a remote's ref list.

Builds one ref list of N refs in memory (``refs/tags/tNNNNNNNN`` on distinct commits, a few release tags and
branches), and times :func:`ascend_reflint.check.run_checks` over a file of pins that ask the questions the
rules ask of a ref list: a missing versioned ref (suggestion and nearest names), a missing name without
digits (spelling), a release branch (same-version tags), an abbreviated commit id in ``clone --branch`` and
in ``uses:`` (tips), a clone without a ref (newest release). The first run builds the list's index; the
second answers from it. Run it with the Python of the reflint to measure:

    python benchmarks/check_scaling.py --refs 5000000 --pins 10
"""

from __future__ import annotations

import argparse
import time

from ascend_reflint.check import load_policy, run_checks
from ascend_reflint.model import FileKind, Pin, RemoteRefs, SourceFile, Span, Via

URL = "https://github.com/org/big.git"
REMOTE = "github.com/org/big"


def ref_list(count: int) -> RemoteRefs:
    """``count`` tags on distinct commits, plus release tags ``v1.0.0`` … and branches."""
    tags = {f"t{n:08d}": f"{n:040x}" for n in range(count)}
    tags.update({f"v1.{minor}.0": f"{minor + 1:x}".rjust(40, "a") for minor in range(20)})
    branches = {"main": "f" * 40, "release/v1.3": "e" * 40, "develop": "d" * 40}
    return RemoteRefs(REMOTE, branches, tags, head="f" * 40, fetched_at=time.time())


def pins(count: int) -> list[Pin]:
    """``count`` pins cycling through the questions (see the module docstring)."""
    asks = [
        ("v1.25.0", Via.CLONE_BRANCH),  # missing version: suggestion and nearest names
        ("devlop", Via.CHECKOUT),  # missing name without digits: spelling
        ("release/v1.3", Via.CLONE_BRANCH),  # a release branch: same-version tags
        ("0000000000000000000000000000000000000abc", Via.CLONE_BRANCH),  # a commit id: tips
        ("00000000000abc", Via.ACTION),  # a short id in uses: tips
        (None, Via.CLONE),  # no ref: newest release
        ("t00001234", Via.CLONE_BRANCH),  # an existing tag
    ]
    made = []
    for number in range(count):
        ref, via = asks[number % len(asks)]
        span = Span(number + 1, 1, number + 1, 10)
        made.append(
            Pin(
                path="Dockerfile",
                kind=FileKind.DOCKERFILE,
                via=via,
                span=span,
                url=URL,
                remote=REMOTE,
                ref=ref,
                ref_text=ref,
                url_span=span,
            )
        )
    return made


def lookup_key_of(pin: Pin) -> str:
    """The key the engine files the pin's lookup under (the remote before lookups were per URL)."""
    try:
        from ascend_reflint.check.engine import pin_lookup_key
    except ImportError:
        return REMOTE
    return pin_lookup_key(pin) or REMOTE


def main() -> None:
    """Time two check runs over one big ref list and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--refs", type=int, default=5_000_000)
    parser.add_argument("--pins", type=int, default=10)
    args = parser.parse_args()
    started = time.perf_counter()
    refs = ref_list(args.refs)
    built = time.perf_counter() - started
    source = SourceFile("Dockerfile", "/repo/Dockerfile", FileKind.DOCKERFILE, pins=pins(args.pins))
    lookups = {lookup_key_of(pin): refs for pin in source.pins}
    policy = load_policy()
    print(f"{args.refs} refs (made in {built:.1f} s), {args.pins} pins")
    for run in ("first (builds the index)", "second"):
        started = time.perf_counter()
        found = run_checks([source], lookups, policy)
        print(f"  {run}: {time.perf_counter() - started:.2f} s, {len(found)} findings")


if __name__ == "__main__":
    main()
