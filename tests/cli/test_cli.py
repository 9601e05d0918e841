"""`octoscript` CLI: JSON reports, exit codes, stdin, format and outline."""

from __future__ import annotations

import io
import json

import pytest

from octoscript_lsp.cli import main
from octoscript_lsp.limits import MAX_SOURCE_BYTES


@pytest.fixture
def write(tmp_path):
    def make(name: str, content: str | bytes) -> str:
        path = tmp_path / name
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8"))
        else:
            path.write_bytes(content)
        return str(path)

    return make


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line]


class FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


def test_check_valid_file(write, capsys):
    path = write("ok.octoscript", "let a = 1\n")
    assert main(["check", "--output-format", "json", path]) == 0
    captured = capsys.readouterr()
    assert json_lines(captured.out) == [
        {"path": path, "valid": True, "diagnostics": [], "diagnostics_truncated": False}
    ]
    assert captured.err == ""


def test_check_invalid_file_reports_line_and_column(write, capsys):
    path = write("bad.octoscript", "let a = 1\nlet b = 'x'\n")
    assert main(["check", "--output-format", "json", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert report["valid"] is False
    assert report["diagnostics"] == [
        {
            "line": 2,
            "column": 9,
            "end_line": 2,
            "end_column": 9,
            "severity": "error",
            "message": "only double-quoted strings are part of canonical Octoscript",
            "code": "single-quoted-string",
        }
    ]


def test_check_several_files_one_line_each(write, capsys):
    good = write("a.octoscript", "let a = 1\n")
    bad = write("b.octoscript", "let if = 1\n")
    assert main(["check", "--output-format", "json", good, bad]) == 1
    reports = json_lines(capsys.readouterr().out)
    assert [report["path"] for report in reports] == [good, bad]
    assert [report["valid"] for report in reports] == [True, False]
    assert len(reports[1]["diagnostics"]) == 3


def test_check_truncated_diagnostics(write, capsys):
    path = write("many.octoscript", "#" * 50)
    assert main(["check", "--output-format", "json", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert len(report["diagnostics"]) == 32
    assert report["diagnostics_truncated"] is True


def test_column_counts_code_points_after_emoji(write, capsys):
    path = write("emoji.octoscript", 'let s = "😀😀" ?\n')
    assert main(["check", "--output-format", "json", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert (report["diagnostics"][0]["line"], report["diagnostics"][0]["column"]) == (1, 14)


def test_crlf_columns(write, capsys):
    path = write("crlf.octoscript", "let a = 1\r\nlet b = #\r\n")
    assert main(["check", "--output-format", "json", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert [(d["line"], d["column"]) for d in report["diagnostics"]] == [(2, 9)]


def test_missing_file_exits_2_without_traceback(tmp_path, capsys):
    missing = str(tmp_path / "nope.octoscript")
    assert main(["check", "--output-format", "json", missing]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "cannot read" in captured.err and "nope.octoscript" in captured.err
    assert "Traceback" not in captured.err


def test_missing_file_does_not_stop_later_files(write, tmp_path, capsys):
    good = write("ok.octoscript", "let a = 1\n")
    assert main(["check", "--output-format", "json", str(tmp_path / "missing"), good]) == 2
    assert [report["path"] for report in json_lines(capsys.readouterr().out)] == [good]


def test_non_utf8_file_exits_2(write, capsys):
    path = write("latin1.octoscript", b'let s = "\xe9"\n')
    assert main(["check", "--output-format", "json", path]) == 2
    captured = capsys.readouterr()
    assert "not valid UTF-8" in captured.err
    assert "Traceback" not in captured.err
    assert captured.out == ""


def test_oversized_file_is_a_source_too_large_finding(write, capsys):
    path = write("big.octoscript", b"x" * (MAX_SOURCE_BYTES + 1))
    assert main(["check", "--output-format", "json", path]) == 1
    captured = capsys.readouterr()
    (report,) = json_lines(captured.out)
    assert report["valid"] is False
    assert report["diagnostics"] == [
        {
            "line": 1,
            "column": 1,
            "end_line": 1,
            "end_column": 1,
            "severity": "error",
            "message": f"source is {MAX_SOURCE_BYTES + 1} bytes; "
            f"Octoscript accepts at most {MAX_SOURCE_BYTES} bytes",
            "code": "source-too-large",
        }
    ]
    assert captured.err == ""


def test_format_still_refuses_an_oversized_file(write, capsys):
    path = write("big.octoscript", b"x" * (MAX_SOURCE_BYTES + 1))
    assert main(["format", path]) == 2
    captured = capsys.readouterr()
    assert str(MAX_SOURCE_BYTES) in captured.err
    assert "Traceback" not in captured.err


def test_file_at_the_size_limit_is_read(write, capsys):
    path = write("edge.octoscript", b"//" + b"x" * (MAX_SOURCE_BYTES - 2))
    assert main(["check", "--output-format", "json", path]) == 0
    assert json_lines(capsys.readouterr().out)[0]["valid"] is True


def test_directory_without_sources_warns_and_exits_0(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("x")
    assert main(["check", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert "no *.octoscript or *.octo files" in captured.err
    assert captured.out == "checked 0 files: 0 errors, 0 warnings\n"


def test_usage_errors_exit_2(capsys):
    assert main([]) == 2
    assert main(["check", "--frobnicate"]) == 2
    assert main(["frobnicate", "x"]) == 2
    assert "usage" in capsys.readouterr().err


def test_help_exits_0(capsys):
    assert main(["--help"]) == 0
    assert "check" in capsys.readouterr().out


def test_stdin_dash(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", FakeStdin(b"let a = 1\nlet b = a\n"))
    assert main(["check", "--output-format", "json", "-"]) == 0
    (report,) = json_lines(capsys.readouterr().out)
    assert report == {"path": "-", "valid": True, "diagnostics": [], "diagnostics_truncated": False}


def test_stdin_invalid_utf8(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", FakeStdin(b"\xff\xfe"))
    assert main(["check", "--output-format", "json", "-"]) == 2
    assert "not valid UTF-8" in capsys.readouterr().err


def test_stdin_oversized(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", FakeStdin(b" " * (MAX_SOURCE_BYTES + 10)))
    assert main(["check", "--output-format", "json", "-"]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert report["diagnostics"][0]["code"] == "source-too-large"
    assert report["diagnostics"][0]["message"].startswith(f"source is {MAX_SOURCE_BYTES + 10} ")


# ---------------------------------------------------------------- format


def test_format_rewrites_the_file_in_place(write, capsys):
    path = write("f.octoscript", "let a=1\r\nfn f(x){\nreturn x\n}   ")
    assert main(["format", path]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"reformatted {path}\n1 file reformatted, 0 files left unchanged\n"
    with open(path, "rb") as handle:
        assert handle.read() == b"let a = 1\nfn f(x) {\n    return x\n}\n"


def test_format_leaves_canonical_files_alone(write, capsys):
    path = write("f.octoscript", "let a = 1\n")
    assert main(["format", path]) == 0
    assert capsys.readouterr() == ("", "0 files reformatted, 1 file left unchanged\n")


def test_format_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", FakeStdin('let s  =  "é"'.encode()))
    assert main(["format", "-"]) == 0
    assert capsys.readouterr().out == 'let s = "é"\n'


def test_format_check_exit_1_when_it_would_change(write, capsys):
    path = write("f.octoscript", "let a=1\n")
    assert main(["format", "--check", path]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"would reformat {path}\n1 file would be reformatted, 0 files already formatted\n"
    )
    with open(path, "rb") as handle:
        assert handle.read() == b"let a=1\n"


def test_format_check_exit_0_on_canonical(write, capsys):
    path = write("f.octoscript", "let a = 1\n")
    assert main(["format", "--check", path]) == 0
    assert capsys.readouterr() == ("", "0 files would be reformatted, 1 file already formatted\n")


def test_format_check_several_files(write, capsys):
    good = write("a.octoscript", "let a = 1\n")
    bad = write("b.octoscript", "let a = 1")
    assert main(["format", "--check", good, bad]) == 1
    err = capsys.readouterr().err
    assert bad in err and good not in err


def test_format_diff_prints_a_unified_diff(write, capsys):
    path = write("d.octoscript", "let a=1\nlet b = 2\n")
    assert main(["format", "--diff", path]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"--- {path} (original)\n+++ {path} (formatted)\n")
    assert "-let a=1\n+let a = 1\n" in out and " let b = 2\n" in out


def test_format_invalid_source_exits_2_and_is_untouched(write, capsys):
    path = write("bad.octoscript", "let a = 1\nlet if = 2\n")
    assert main(["format", path]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{path}:2:5: error: expected an identifier after `let`" in captured.err
    assert f"{path}: invalid source left unformatted" in captured.err
    assert "Traceback" not in captured.err
    with open(path, "rb") as handle:
        assert handle.read() == b"let a = 1\nlet if = 2\n"


def test_format_check_invalid_source_exits_2(write, capsys):
    path = write("bad.octoscript", "var a = 1\n")
    assert main(["format", "--check", path]) == 2
    assert f"{path}:1:1:" in capsys.readouterr().err


def test_format_missing_file_exits_2(tmp_path, capsys):
    assert main(["format", str(tmp_path / "missing")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_format_stdin_only_on_its_own(write, capsys):
    a = write("a.octoscript", "let a = 1\n")
    assert main(["format", a, "-"]) == 2
    assert "only on its own" in capsys.readouterr().err


# ---------------------------------------------------------------- outline


def test_outline_reports_top_level_declarations(write, capsys):
    source = "use mod.tool\nlet a = 1\nfn f(x) {\n    let inner = x\n}\nlet b = {\n    k: 2\n}\n"
    path = write("o.octoscript", source)
    assert main(["outline", path]) == 0
    (report,) = json_lines(capsys.readouterr().out)
    assert report["valid"] is True
    assert report["declarations"] == [
        {"kind": "let", "name": "a", "declaration": [13, 22], "selection": [17, 18]},
        {"kind": "function", "name": "f", "declaration": [23, 52], "selection": [26, 27]},
        {"kind": "let", "name": "b", "declaration": [53, 73], "selection": [57, 58]},
    ]


def test_outline_spans_are_utf8_bytes(write, capsys):
    source = 'let s = "é😀"\nfn g() {\n}\n'
    path = write("u.octoscript", source)
    assert main(["outline", path]) == 0
    (report,) = json_lines(capsys.readouterr().out)
    # `"é😀"` is 4 code points but 8 bytes; `fn` starts at byte 17, code point 13.
    assert report["declarations"] == [
        {"kind": "let", "name": "s", "declaration": [0, 16], "selection": [4, 5]},
        {"kind": "function", "name": "g", "declaration": [17, 27], "selection": [20, 21]},
    ]
    encoded = source.encode("utf-8")
    assert encoded[17:27] == b"fn g() {\n}"


def test_outline_invalid_source_has_no_declarations(write, capsys):
    path = write("bad.octoscript", "let a = 1\nlet b = 'x'\n")
    assert main(["outline", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    assert report["valid"] is False
    assert report["declarations"] == []
    assert report["diagnostics"][0]["line"] == 2


def test_json_output_keeps_non_ascii(write, capsys):
    path = write("é.octoscript", "let a = 1\n")
    main(["check", "--output-format", "json", path])
    assert "é" in capsys.readouterr().out


@pytest.mark.parametrize(
    "source",
    [
        'let s = "😀😀" ?\r\nlet b = #\r\n',  # astral characters, CRLF
        "let a = 1\rlet b = #\n",  # bare CR: the checker's lines end at LF only
    ],
)
def test_text_positions_match_json_positions(write, capsys, source):
    path = write("p.octoscript", source)
    assert main(["check", "--output-format", "json", path]) == 1
    (report,) = json_lines(capsys.readouterr().out)
    expected = [
        f"{path}:{d['line']}:{d['column']}: error: {d['message']} [{d['code']}]"
        for d in report["diagnostics"]
    ]
    assert main(["check", path]) == 1
    assert capsys.readouterr().out.splitlines()[:-1] == expected
