/**
 * The MVASM grammar tokenized by VS Code's own TextMate engine (vscode-textmate with the
 * Oniguruma regex library VS Code uses), on lines of the repository's examples.
 */
"use strict";
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const oniguruma = require("vscode-oniguruma");
const { INITIAL, Registry } = require("vscode-textmate");

const GRAMMAR = path.join(__dirname, "..", "syntaxes", "mvasm.tmLanguage.json");

async function grammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scope) =>
      scope === "source.mvasm" ? JSON.parse(fs.readFileSync(GRAMMAR, "utf8")) : null,
  });
  return registry.loadGrammar("source.mvasm");
}

/** [text, innermost scope] of each token of `line` that is not white space. */
function tokens(mvasm, line) {
  const { tokens: found } = mvasm.tokenizeLine(line, INITIAL);
  return found
    .map((t) => [line.slice(t.startIndex, t.endIndex).trim(), t.scopes.at(-1)])
    .filter(([text]) => text);
}

describe("the MVASM grammar", function () {
  let mvasm;
  before(async function () {
    mvasm = await grammar();
  });

  it("colours a label, its mnemonic, registers, a symbol and a comment", function () {
    assert.deepEqual(tokens(mvasm, "main:   LDI32 R1, greeting                  ; R1 = address of the text"), [
      ["main", "entity.name.function.label.mvasm"],
      [":", "punctuation.separator.mvasm"],
      ["LDI32", "keyword.other.mnemonic.mvasm"],
      ["R1", "variable.language.register.mvasm"],
      [", greeting", "source.mvasm"],
      ["; R1 = address of the text", "comment.line.semicolon.mvasm"],
    ]);
  });

  it("colours SVC's fields, numbers, memory operands and directives", function () {
    assert.deepEqual(tokens(mvasm, "    SVC MOD=5, FN=0"), [
      ["SVC", "keyword.other.mnemonic.mvasm"],
      ["MOD", "support.function.mvasm"],
      ["=", "keyword.operator.mvasm"],
      ["5", "constant.numeric.mvasm"],
      [",", "source.mvasm"],
      ["FN", "support.function.mvasm"],
      ["=", "keyword.operator.mvasm"],
      ["0", "constant.numeric.mvasm"],
    ]);
    assert.deepEqual(tokens(mvasm, "    STB [R2+9], R3"), [
      ["STB", "keyword.other.mnemonic.mvasm"],
      ["[", "source.mvasm"],
      ["R2", "variable.language.register.mvasm"],
      ["+", "keyword.operator.mvasm"],
      ["9", "constant.numeric.mvasm"],
      ["],", "source.mvasm"],
      ["R3", "variable.language.register.mvasm"],
    ]);
    assert.deepEqual(tokens(mvasm, '        .ascii "Hello from HSX\\n"'), [
      [".ascii", "keyword.control.directive.mvasm"],
      ['"', "string.quoted.double.mvasm"],
      ["Hello from HSX", "string.quoted.double.mvasm"],
      ["\\n", "constant.character.escape.mvasm"],
      ['"', "string.quoted.double.mvasm"],
    ]);
  });

  it("finds the mnemonic and the comment of every instruction line of the examples", function () {
    const examples = path.join(__dirname, "..", "..", "..", "examples", "mvasm");
    let checked = 0;
    for (const file of fs.readdirSync(examples).filter((name) => name.endsWith(".mvasm"))) {
      for (const line of fs.readFileSync(path.join(examples, file), "utf8").split("\n")) {
        const statement = /^\s*(?:[\w.$]+:\s*)*([A-Z][A-Z0-9]*)\b/.exec(line);
        const found = tokens(mvasm, line);
        if (statement) {
          assert.ok(found.some(([text, scope]) => text === statement[1] && scope === "keyword.other.mnemonic.mvasm"), `${file}: ${line}`);
          checked++;
        }
        if (line.includes(";") && !line.includes('"'))
          assert.equal(found.at(-1)[1], "comment.line.semicolon.mvasm", `${file}: ${line}`);
      }
    }
    assert.ok(checked > 50, `${checked} instruction lines checked`);
  });
});
