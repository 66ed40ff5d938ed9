"""The docs test's reading of shell blocks (`tests.support.transcripts`): what a page opts in, and how it compares."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.transcripts import on_port, run_in_terminal, same_output, shown_on

PAGE = """# A page

Not opted in:

```sh
rm -rf /
```

<!-- docs-test: compare -->
```text
$ echo one \\
  two
one two
$ printf 'a\\nb\\n'   # exit 0
a
b
$ sh -c 'exit 3'   # exit 3
```

<!-- docs-test: run -->
```sh
curl -s http://127.0.0.1:8000/mcp \\
  -d '{"a":
       1}'
# a comment line is not a command

echo done
```

Some prose, then the output:

<!-- docs-test: output -->
```json
{"a": 1}
```

<!-- docs-test: run -->
```sh
true
```
"""


def test_a_page_opts_blocks_in_with_a_marker_and_commands_keep_their_continuations(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE)
    shown = shown_on(page)
    assert [[c.text for c in s.commands] for s in shown] == [
        ["echo one \\\n  two"],
        ["printf 'a\\nb\\n'"],
        ["sh -c 'exit 3'"],
        ["curl -s http://127.0.0.1:8000/mcp \\\n  -d '{\"a\":\n       1}'", "echo done"],
        ["true"],
    ]
    assert [s.expected for s in shown] == ["one two", "a\nb", "", '{"a": 1}\n', None]
    assert [c.status for s in shown for c in s.commands] == [0, 0, 3, 0, 0, 0]
    assert shown[0].line == 11 and shown[3].commands[1].line == 27  # first lines of the page


def test_an_output_block_without_a_run_block_before_it_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- docs-test: output -->\n```json\n{}\n```\n")
    with pytest.raises(ValueError, match=r"page\.md:3: an output block must follow a 'run' block"):
        shown_on(page)


def test_only_what_varies_is_normalised() -> None:
    port = 41234
    assert same_output("http://127.0.0.1:8000/mcp TX-5A659403", f"http://127.0.0.1:{port}/mcp TX-CE9E2C35", port)[0]
    assert same_output("open http://localhost:8000/askback/p/Reapl8hLscfKByecS21j-SoFezUOe_qy",
                       f"open http://localhost:{port}/askback/p/js0b4BYWC6p0TTSvF-JYdULaO5pEi6WI", port)[0]
    assert same_output("status  sent  \n\n", "status  sent\r\n", port)[0]
    assert not same_output("status  sent", "status  failed", port)[0]
    assert not same_output("amount  50", "amount  51", port)[0]
    assert not same_output("port 8000", f"port {port}", port)[0], "only a URL's port is the server's"


def test_json_is_compared_as_values_with_the_request_state_left_out() -> None:
    shown = '{\n  "result": {"resultType": "input_required", "requestState": "…", "note": "…3000"}\n}'
    printed = '{"result":{"resultType":"input_required","requestState":"AdhqiGWPX1-S_Dh","note":"\\u20263000"}}'
    assert same_output(shown, printed, 1)[0]
    assert not same_output(shown, printed.replace("input_required", "complete"), 1)[0]
    assert not same_output(shown, printed.replace('"note"', '"other"'), 1)[0]
    assert not same_output(shown, "not json", 1)[0]


def test_commands_run_in_a_terminal_with_their_exit_status(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    status, output = run_in_terminal(f"{sys.executable} -c 'import sys; print(sys.stdout.isatty(), "
                                     "sys.stderr.isatty(), sys.stdin.isatty())'; exit 4", tmp_path, env)
    assert status == 4
    assert output.replace("\r\n", "\n") == "True True False\n"


def test_a_command_is_sent_to_the_running_server() -> None:
    assert on_port("curl http://127.0.0.1:8000/mcp && askback tools http://localhost:8000/mcp", 5123) == \
        "curl http://127.0.0.1:5123/mcp && askback tools http://localhost:5123/mcp"
    assert on_port("echo 80001 127.0.0.1:80001", 5123) == "echo 80001 127.0.0.1:80001"
