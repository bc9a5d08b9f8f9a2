"""Shell extraction (CONTRACT STUB — to be implemented).

    class ShellSession:
        def __init__(self, path: str, kind: FileKind, scope: Scope, stage: str | None = None) -> None
        cwd: str                      # current directory, settable (Dockerfile WORKDIR); "" = unknown
        notices: list[str]
        def run(self, text: str, source_map: SourceMap) -> None     # one script body; raises ExtractError
        def finish(self) -> list[Pin]                               # pins in file order

    def extract_shell_file(source: SourceFile) -> None
"""
