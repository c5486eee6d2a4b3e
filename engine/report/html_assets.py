"""The constant style and script of the HTML report. Neither ever holds data:
the page's text is escaped HTML, so nothing from a run is ever inside them."""

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5em auto;max-width:80em;
padding:0 1em;color:#1b1f24;background:#fff}
h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1.05em}h4{font-size:.95em;margin:.6em 0}
table{border-collapse:collapse;margin:.5em 0}th,td{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;
vertical-align:top}th{background:#f6f8fa}
.decision{padding:.6em 1em;border-radius:6px;border:2px solid}.decision.pass{border-color:#1a7f37;background:#dafbe1}
.decision.fail{border-color:#cf222e;background:#ffebe9}
.decision.conditional{border-color:#9a6700;background:#fff8c5}.verdict{font-size:1.3em;margin:.2em 0}
.badge{display:inline-block;min-width:4.5em;text-align:center;font-weight:600;border-radius:4px;padding:0 .3em;
color:#fff}.badge.pass{background:#1a7f37}.badge.fail{background:#cf222e}.badge.error{background:#8250df}
.badge.not_graded,.badge.empty{background:#6e7781}
.cell{text-align:center;font-weight:700}.cell.pass{color:#1a7f37}.cell.fail{color:#cf222e}
.cell.error{color:#8250df}.cell.not_graded{color:#6e7781}
details.run{border:1px solid #d0d7de;border-radius:6px;margin:.6em 0;padding:.3em .8em}
details.run>summary{cursor:pointer;font-weight:600}
ol.assertions{padding-left:1.2em}li.assertion{margin:.6em 0}
.meta,.loc{color:#57606a;font-size:.9em}.note{color:#9a6700;font-size:.9em}
pre.evidence{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.4em .6em;margin:.3em 0;
border-left:3px solid #d0d7de}li.fail pre.evidence,li.error pre.evidence{border-left-color:#cf222e}
table.source td{font-size:.9em}table.source td.line{text-align:right;color:#57606a}
table.source code{white-space:pre-wrap;word-break:break-word}
.not-graded{border-top:1px dashed #8c959f;margin-top:.5em;color:#57606a}
.feedback{color:#57606a}
body.only-failures li.assertion.pass,body.only-failures .not-graded,body.only-failures details.run:not(.has-failure),
body.only-failures section.eval:not(.has-failure){display:none}
"""

SCRIPT = """
(function () {
  var box = document.getElementById("only-failures");
  function apply() { document.body.classList.toggle("only-failures", box.checked); }
  box.addEventListener("change", apply);
  apply();
})();
"""
