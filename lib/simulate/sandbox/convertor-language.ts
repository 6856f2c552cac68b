// Seed 000's planners write convertor_code in Python; Plangate's sandbox runs JavaScript.
// Python read as JavaScript fails in confusing ways, or worse, runs and means something
// else, so code that shows a line only Python writes is reported as such and never run.

const PYTHON_ONLY: RegExp[] = [
  // def name(args): / def name(args) -> type:
  /^[ \t]*def[ \t]+[A-Za-z_]\w*[ \t]*\([^)]*\)[ \t]*(->[^:\n]+)?:[ \t]*(#.*)?$/m,
  // from x import y
  /^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]+\S/m,
  // import x / import x as y (JavaScript's import names a quoted module)
  /^[ \t]*import[ \t]+[\w.]+([ \t]+as[ \t]+\w+)?[ \t]*(#.*)?$/m,
  // a block opened with a colon where JavaScript needs a brace
  /^[ \t]*(if|elif|else|for|while|with|try|except|finally)\b[^{};\n]*:[ \t]*(#.*)?$/m,
  /\blambda\b[^:\n]*:/,
];

/** The first line that only Python would write, or null when the code may be JavaScript. */
export function pythonLine(code: string): string | null {
  for (const pattern of PYTHON_ONLY) {
    const match = pattern.exec(code);
    if (!match) continue;
    const start = code.lastIndexOf('\n', match.index) + 1;
    const end = code.indexOf('\n', match.index + 1);
    return code.slice(start, end < 0 ? undefined : end).trim().slice(0, 80);
  }
  return null;
}
