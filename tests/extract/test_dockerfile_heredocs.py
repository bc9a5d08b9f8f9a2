"""BuildKit heredocs end to end (the Dockerfile extractor with the real shell extractor): every form a
user trial tried gives its pins, with positions in the file, and no notice about valid shell.

Columns are counted by hand from the fixture (1-based, end exclusive).
"""

from __future__ import annotations

from ascend_reflint.extract.dockerfile import extract_dockerfile
from ascend_reflint.model import FileKind, SourceFile


def extract(text: str) -> SourceFile:
    source = SourceFile(path="Dockerfile", abspath="/r/Dockerfile", kind=FileKind.DOCKERFILE)
    source.text = text
    extract_dockerfile(source, {})
    return source


HEREDOCS = """\
FROM ubuntu:22.04
ARG DEEPEP_REF=v1.2.1
RUN <<EOT sh -ex
git clone --branch v1 https://github.com/o/sh.git
EOT
RUN <<-EOT
\tgit clone --branch v2 https://github.com/o/chomp.git
\tEOT
RUN <<EOT bash
git clone --branch "$DEEPEP_REF" https://github.com/deepseek-ai/DeepEP.git
EOT
RUN <<"EOT"
git clone --branch v3 https://github.com/o/quoted.git
EOT
RUN <<A bash && <<B sh -e
git clone --branch v4 https://github.com/o/first.git
A
git clone --branch v5 https://github.com/o/second.git
B
RUN cat <<EOF >/etc/refs ; git clone --branch v6 https://github.com/o/after.git
git clone --branch v0 https://github.com/o/data.git
EOF
"""


def test_every_heredoc_form_gives_its_pins_and_no_notice() -> None:
    source = extract(HEREDOCS)
    assert source.notices == []
    assert [
        (pin.span.line, pin.span.column, pin.span.end_column, pin.ref, pin.url) for pin in source.pins
    ] == [
        (4, 20, 22, "v1", "https://github.com/o/sh.git"),
        (7, 21, 23, "v2", "https://github.com/o/chomp.git"),
        (10, 21, 32, "v1.2.1", "https://github.com/deepseek-ai/DeepEP.git"),
        (13, 20, 22, "v3", "https://github.com/o/quoted.git"),
        (16, 20, 22, "v4", "https://github.com/o/first.git"),
        (18, 20, 22, "v5", "https://github.com/o/second.git"),
        (20, 47, 49, "v6", "https://github.com/o/after.git"),
    ]
