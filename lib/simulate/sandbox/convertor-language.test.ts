import { describe, expect, it } from 'vitest';
import { pythonLine } from './convertor-language';
import { runConvertor } from './run-convertor';

describe('convertor language', () => {
  it('names the line that gives Python away', () => {
    expect(pythonLine('def convert(data):\n    return data')).toBe('def convert(data):');
    expect(pythonLine('def convert(data) -> dict:  # seed 000\n    return data')).toBe('def convert(data) -> dict:  # seed 000');
    expect(pythonLine('import json\nreturn json.loads(input)')).toBe('import json');
    expect(pythonLine('from datetime import datetime\nx = 1')).toBe('from datetime import datetime');
    expect(pythonLine('if input is None:\n    return {}')).toBe('if input is None:');
    expect(pythonLine('return list(map(lambda d: d["id"], input))')).toBe('return list(map(lambda d: d["id"], input))');
  });

  it('leaves JavaScript alone, however it is written', () => {
    for (const code of [
      'return input',
      'x => x',
      'return { ids: input.data.map((d) => d.id), total: input.data.reduce((s, d) => s + d.n, 0) }',
      'function convert(i) { return i.data.length }\nconst n = convert(input);\nreturn [n, null, "x", true]',
      "import json from 'json'",
      'if (input) {\n  return { ok: true };\n} else {\n  return null;\n}',
      'switch (input.kind) {\n  case 1:\n    return "one";\n  default:\n    return "other";\n}',
      'const o = { if: 1, for: 2 };\nreturn o',
      'for (const item of input) {\n  item.seen = true;\n}\nreturn input',
    ]) {
      expect(pythonLine(code), code).toBeNull();
    }
  });

  it('reports a Python convertor as not run, in the dry run and in runs alike', async () => {
    const outcome = await runConvertor('def convert(data):\n    return data', { a: 1 });
    expect(outcome).toEqual({
      ok: false,
      kind: 'not_javascript',
      ms: 0,
      message: 'it is Python ("def convert(data):"), and convertors run as JavaScript: rewrite it as a JavaScript function body that reads `input` and returns the new input; it was not run',
    });
  });
});
