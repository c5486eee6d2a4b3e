"""The constant style of the HTML report. It never holds data."""

STYLE = """
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;max-width:84em;
padding:0 1em 2em;color:#1b1f24;background:#fff}
h1{font-size:1.3em;margin:.8em 0 .5em}h1 a{color:inherit;text-decoration:none}
h2{font-size:1.15em;margin:.4em 0}h3{font-size:1em;margin:.8em 0 .3em}
a{color:#0969da}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #d0d7de;padding:.2em .5em;text-align:left;
vertical-align:top}th{background:#f6f8fa}
.decision{padding:.5em 1em;border-radius:6px;border:2px solid}.decision.pass{border-color:#1a7f37;background:#dafbe1}
.decision.fail{border-color:#cf222e;background:#ffebe9}
.decision.conditional{border-color:#9a6700;background:#fff8c5}.verdict{font-size:1.25em;margin:.2em 0}
.decision p{margin:.25em 0}.context{color:#57606a}
details.tables,details.problems{margin:.5em 0}details>summary{cursor:pointer;color:#57606a}
#filters{position:sticky;top:0;background:#fff;border-bottom:1px solid #d0d7de;padding:.5em 0;margin:.5em 0;
z-index:2}#filters label{margin-right:1em}#f-count{color:#57606a}
.badge{display:inline-block;min-width:4.2em;text-align:center;font-weight:600;border-radius:4px;padding:0 .3em;
color:#fff;font-size:.9em}.badge.pass{background:#1a7f37}.badge.fail{background:#cf222e}
.badge.error{background:#8250df}.badge.not_graded,.badge.empty{background:#6e7781}
section.eval{border:1px solid #d0d7de;border-radius:6px;margin:.8em 0;padding:.4em .9em}
section.eval.has-failure{border-left:4px solid #cf222e}
ul.hints{color:#9a6700;margin:.2em 0;padding-left:1.2em}
table.side-by-side td.assertion-text{max-width:38em}td.marks{white-space:nowrap}
a.mark{text-decoration:none;font-weight:700;padding:0 .12em}.o-p{color:#1a7f37}.o-v{color:#9a6700}
.o-f{color:#cf222e}.o-e{color:#8250df}.o-n,.o---{color:#6e7781}.tally{color:#57606a;font-size:.9em}
.columns{display:flex;gap:1.5em;flex-wrap:wrap}.column{flex:1 1 18em}
ul.runs{list-style:none;padding:0;margin:.2em 0}ul.runs li{margin:.15em 0}
button.more{margin:.8em 0;padding:.3em .8em}
.run-view .meta,.meta,.loc{color:#57606a;font-size:.9em}.back{display:inline-block;margin:.3em 0}
pre.text,pre.evidence{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:.4em .6em;margin:.3em 0;
border-left:3px solid #d0d7de}
ol.assertions{padding-left:1.2em}li.assertion{margin:.6em 0}.note{color:#9a6700;font-size:.9em}
li.fail pre.evidence,li.error pre.evidence{border-left-color:#cf222e}
.places a,.places span{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em}
.place.unshown{color:#57606a}
table.lines{width:100%;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
table.lines td{border:0;padding:0 .5em}table.lines td.number,table.lines td.source{color:#8c959f;text-align:right;
white-space:nowrap;user-select:none}table.lines td.code{white-space:pre-wrap;word-break:break-word;width:100%}
table.lines tr.cited td{background:#fff8c5}table.lines tr.cited-failure td{background:#ffebe9}
table.lines td.cited-by{white-space:nowrap}a.tag{font-size:11px;margin-left:.3em}
tr.target td,li.target{outline:2px solid #0969da}
body.viewing-run #decision,body.viewing-run details.tables,body.viewing-run details.problems{display:none}
ul.claims li.unverified{color:#cf222e}.problem{color:#cf222e}
"""
