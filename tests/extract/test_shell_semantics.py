"""What the shell does, followed: directories known only as expressions, arrays, functions with arguments,
named remotes. Each fixture is shaped like a real script (NeMo's docker/common/install_dep.sh, vllm-ascend's
tools/mooncake_installer.sh, Megatron-LM's .gitlab/scripts/fetch-legacy-suite.sh) and failed before; the
traps beside them must stay as they are. Columns are counted by hand (1-based, end exclusive)."""

from __future__ import annotations

from ascend_reflint.extract import extract_file
from ascend_reflint.model import FileKind, Pin, SourceFile, Span

VLLM = "https://github.com/vllm-project/vllm.git"


def extract(text: str) -> SourceFile:
    source = SourceFile(path="build.sh", abspath="/x/build.sh", kind=FileKind.SHELL, text=text)
    extract_file(source)
    return source


def brief(pin: Pin) -> tuple[object, ...]:
    """A pin as (line, column, end column, via, ref as written, ref, url, origin line, call-site lines)."""
    return (
        pin.span.line,
        pin.span.column,
        pin.span.end_column,
        pin.via.value,
        pin.ref_text,
        pin.ref,
        pin.url,
        pin.ref_origin.span.line if pin.ref_origin else None,
        tuple(site.span.line for site in pin.call_sites),
    )


def pins(text: str) -> list[tuple[object, ...]]:
    return [brief(pin) for pin in extract(text).pins]


# --- directories known only as expressions --------------------------------------------------------------


def test_a_clone_into_dirname_then_basename_is_the_directory_that_pushd_enters() -> None:
    text = f"""\
D="$INSTALL_DIR/vllm"
mkdir -p $(dirname "$D")
cd $(dirname "$D")
git clone {VLLM} $(basename $D)
pushd $D
git checkout -f v0.9.1
popd
E=$1
cd "$(dirname "$E")" && git clone https://github.com/o/$(basename $E).git
pushd "$E" && git checkout v2 && popd
"""
    assert pins(text) == [
        (6, 17, 23, "checkout", "v0.9.1", "v0.9.1", VLLM, None, ()),
        # the URL names the directory through $(basename): unknown, but the checkout is the clone's
        (10, 28, 30, "checkout", "v2", "v2", "https://github.com/o/$(basename $E).git", None, ()),
    ]


def test_pwd_realpath_and_cd_dash_name_the_directories_they_name() -> None:
    text = f"""\
cd /src && git clone {VLLM} && cd $PWD/vllm && git checkout v1
cd "$(realpath /src/vllm)" && git checkout v2
cd /tmp && cd - && cd vllm && git checkout v3
"""
    assert [pin[:5] for pin in pins(text)] == [
        (1, 95, 97, "checkout", "v1"),
        (2, 44, 46, "checkout", "v2"),
        (3, 44, 46, "checkout", "v3"),
    ]


def test_directories_computed_otherwise_match_nothing() -> None:
    text = f'cd "$(mktemp -d)" && git clone {VLLM}\ncd "$(mktemp -d)" && cd vllm && git checkout v1\n'
    assert [pin[:5] for pin in pins(text)] == [(1, 32, 72, "clone", None)]


# --- arrays ----------------------------------------------------------------------------------------------

ARRAYS = """\
DEPS=(
  "nemo_run"
  "git+https://github.com/o/a.git@v1 ; platform_machine == 'x86_64'"
)
DEPS+=(git+https://github.com/o/b.git@v2)
pip install "${DEPS[@]}"
REFS=(v3 "$TAG" v4)
git clone -b "${REFS[2]}" https://github.com/o/c.git
declare -a EMPTY
pip install "${EMPTY[@]}" ${DEPS[1]}
"""


def test_each_element_of_an_installed_array_is_a_pin_where_it_is_written() -> None:
    assert pins(ARRAYS) == [
        (3, 35, 37, "pip-vcs", "v1", "v1", "https://github.com/o/a.git", None, ()),  # the marker left out
        (5, 39, 41, "pip-vcs", "v2", "v2", "https://github.com/o/b.git", None, ()),  # appended with +=
        (8, 15, 25, "clone-branch", "${REFS[2]}", "v4", "https://github.com/o/c.git", 7, ()),
        # ${DEPS[1]}: the element, read where it is used (its value is written on line 3)
        (10, 27, 37, "pip-vcs", "${DEPS[1]}", "v1", "https://github.com/o/a.git", 3, ()),
    ]


def test_an_associative_array_and_an_unset_element_stay_unresolved() -> None:
    text = 'declare -A R=([a]=v1)\ngit clone -b "$R" https://github.com/o/r.git\nA=(v1)\nA[5]=v2\n'
    text += 'git clone -b "${A[0]}" https://github.com/o/s.git\n'
    found = extract(text).pins
    assert [(pin.ref_text, pin.ref, pin.resolution_note) for pin in found] == [
        ("$R", None, "$R is an associative array (line 1)"),
        ("${A[0]}", None, "an element of array A is set on line 4"),
    ]


def test_an_element_quoted_in_part_spans_its_value_inside_the_quotes() -> None:
    # vllm-ascend's _nightly_image_build.yaml: BUILD_ARGS=(--build-arg K="$V" …) and docker build
    # "${BUILD_ARGS[@]}"; here the element gives git its branch: the pin is the v1 between the quotes
    text = 'A=(--branch="v1" -q)\ngit clone "${A[@]}" https://github.com/o/r.git\n'
    (pin,) = extract(text).pins
    assert (pin.span, pin.ref, pin.ref_origin) == (Span(1, 14, 1, 16), "v1", None)
    text = 'A=(--branch="$X")\ngit clone "${A[@]}" https://github.com/o/r.git\n'
    (pin,) = extract(text).pins
    assert (pin.span, pin.ref, pin.resolution_note) == (
        Span(1, 14, 1, 16),  # the $X between the quotes: --branch= is written, the option git reads
        None,
        'A[0] is --branch="$X": $X is not set in this file',
    )


# --- functions with arguments ----------------------------------------------------------------------------

FUNCTIONS = """\
clone_repo() {
  local name=$1
  local url=$2
  shift 2
  git clone "$url" "$name" && cd "$name"
  git checkout "$1" && cd ..
}
clone_repo vllm https://github.com/vllm-project/vllm.git v0.9.1
clone_repo yaml https://github.com/jbeder/yaml-cpp.git 0.8.0
clone_repo vllm https://github.com/vllm-project/vllm.git v0.9.1
never() { git clone -b "$1" https://github.com/o/never.git; }
git clone -b "$name" https://github.com/o/local.git
"""


def test_a_pin_in_a_function_is_one_per_distinct_call_with_the_calls_as_sites() -> None:
    assert pins(FUNCTIONS) == [
        # the same values from two calls: one pin, two call sites, no one origin
        (6, 17, 19, "checkout", "$1", "v0.9.1", VLLM, None, (8, 10)),
        (6, 17, 19, "checkout", "$1", "0.8.0", "https://github.com/jbeder/yaml-cpp.git", 9, (9,)),
        # never called: its parameters are not known
        (11, 25, 27, "clone-branch", "$1", None, "https://github.com/o/never.git", None, ()),
        # local to clone_repo: unset out here
        (12, 15, 20, "clone-branch", "$name", None, "https://github.com/o/local.git", None, ()),
    ]


def test_the_call_site_says_how_the_function_was_called() -> None:
    first = extract(FUNCTIONS).pins[1]
    assert [(site.span, site.call) for site in first.call_sites] == [
        (Span(9, 1, 9, 61), "called as `clone_repo yaml https://github.com/jbeder/yaml-cpp.git 0.8.0`")
    ]


# --- named remotes ---------------------------------------------------------------------------------------

REMOTES = f"""\
mkdir legacy && pushd legacy
git init
git remote add origin $MCORE_REPO
git remote add upstream {VLLM}
git fetch --depth 1 upstream v0.9.1
git checkout FETCH_HEAD
git checkout upstream/main
git remote set-url upstream https://github.com/fork/vllm.git
git fetch upstream feature && git checkout feature
git pull upstream v0.9.2
git fetch origin 0123456789abcdef0123456789abcdef01234567
git checkout 0123456789abcdef0123456789abcdef01234567
popd
git clone --revision v1.2 https://github.com/o/rev.git
git clone --no-checkout https://github.com/o/nc.git && cd nc && git checkout v3
"""


def test_named_remotes_fetches_and_pulls_pin_their_remotes_refs() -> None:
    fork = "https://github.com/fork/vllm.git"
    assert pins(REMOTES) == [
        (5, 30, 36, "checkout", "v0.9.1", "v0.9.1", VLLM, None, ()),  # FETCH_HEAD: where the fetch names it
        (7, 14, 27, "checkout", "upstream/main", "main", VLLM, None, ()),
        (9, 44, 51, "checkout", "feature", "feature", fork, None, ()),
        (10, 19, 25, "checkout", "v0.9.2", "v0.9.2", fork, None, ()),  # git pull fetches and merges
        (
            12,
            14,
            54,
            "checkout",
            *(["0123456789abcdef0123456789abcdef01234567"] * 2),
            "$MCORE_REPO",
            None,
            (),
        ),
        (14, 22, 26, "checkout", "v1.2", "v1.2", "https://github.com/o/rev.git", None, ()),
        (15, 78, 80, "checkout", "v3", "v3", "https://github.com/o/nc.git", None, ()),
    ]


def test_a_repository_that_git_init_made_holds_only_what_was_fetched() -> None:
    text = "git init /w && cd /w && git checkout main\n"
    assert pins(text) == []
