/* qce view: a small Python highlighter (hand-written for this package, MIT like it).
 * It only splits text into tokens; every token becomes a text node inside a <span>, so the
 * highlighted text is never parsed as markup. */
(function () {
  "use strict";
  var KEYWORDS = ("False None True and as assert async await break class continue def del elif " +
    "else except finally for from global if import in is lambda nonlocal not or pass raise " +
    "return try while with yield match case").split(" ");
  var BUILTINS = ("abs all any bool dict enumerate float int len list map max min print range " +
    "reversed round set sorted str sum tuple type zip isinstance super open complex").split(" ");
  var KW = {}, BI = {};
  KEYWORDS.forEach(function (w) { KW[w] = true; });
  BUILTINS.forEach(function (w) { BI[w] = true; });
  // one alternation, first match wins: comment, string (triple first), number, decorator, word
  var TOKEN = new RegExp([
    "(#[^\\n]*)",
    "((?:[rRbBuUfF]{1,2})?(?:\"\"\"[\\s\\S]*?(?:\"\"\"|$)|'''[\\s\\S]*?(?:'''|$)|\"(?:\\\\.|[^\"\\\\\\n])*\"?|'(?:\\\\.|[^'\\\\\\n])*'?))",
    "(\\b(?:0[xX][0-9a-fA-F_]+|\\d[\\d_]*\\.?\\d*(?:[eE][+-]?\\d+)?j?)\\b)",
    "(@[A-Za-z_][\\w.]*)",
    "([A-Za-z_]\\w*)"
  ].join("|"), "g");

  function span(parent, cls, text) {
    if (!text) return;
    if (!cls) { parent.appendChild(document.createTextNode(text)); return; }
    var s = document.createElement("span");
    s.className = cls;
    s.textContent = text;
    parent.appendChild(s);
  }

  /* Python source -> spans appended to `parent` */
  function python(parent, code) {
    var last = 0, m, prev = "";
    TOKEN.lastIndex = 0;
    while ((m = TOKEN.exec(code)) !== null) {
      if (m[0] === "") { TOKEN.lastIndex++; continue; }
      span(parent, "", code.slice(last, m.index));
      if (m[1]) span(parent, "tk-com", m[1]);
      else if (m[2]) span(parent, "tk-str", m[2]);
      else if (m[3]) span(parent, "tk-num", m[3]);
      else if (m[4]) span(parent, "tk-dec", m[4]);
      else {
        var w = m[5];
        span(parent, KW[w] ? "tk-kw" : (prev === "def" || prev === "class") ? "tk-fn"
             : BI[w] ? "tk-bi" : "", w);
        prev = w;
        last = TOKEN.lastIndex;
        continue;
      }
      prev = "";
      last = TOKEN.lastIndex;
    }
    span(parent, "", code.slice(last));
  }

  /* a completion: prose as plain text, ``` fenced blocks highlighted as Python */
  function completion(parent, text) {
    var fence = /^[ \t]*```[^\n]*\n?/gm, inside = false, last = 0, m;
    while ((m = fence.exec(text)) !== null) {
      var part = text.slice(last, m.index);
      if (inside) python(parent, part); else span(parent, "tk-prose", part);
      span(parent, "tk-fence", m[0]);
      inside = !inside;
      last = fence.lastIndex;
    }
    var rest = text.slice(last);
    // no fence at all: the completion is code (as the extraction rules take it)
    if (inside || last === 0) python(parent, rest); else span(parent, "tk-prose", rest);
  }

  window.QCEHighlight = { python: python, completion: completion };
})();
