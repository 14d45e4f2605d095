#!/usr/bin/env node
// A runner of the Baloot conformance pack in JavaScript (Node 18+, standard
// library only), written from conformance/CASES.md and conformance/PROTOCOL.md.
//
//   node run_pack.mjs --pack DIR --engine "COMMAND" [--profile P] [--json OUT]
//                     [--skip ID|GLOB]... [--timeout SECONDS]
// (--skip: a case id, a glob of ids, or a glob of the clauses a case cites)
//
// It plays every case of the pack against the engine over the protocol and
// prints one verdict per case: passed, failed, errored, skipped, unsupported.
// With --json it writes {case_id: verdict}. Exit status: 0 when every case
// that ran passed, 1 when one failed or errored, 2 on a bad command line,
// 3 when the engine never completed a handshake.
//
// Each step of CASES.md is one function below; the comment above it names
// the section it follows ("CASES.md, Playing a case", "PROTOCOL.md, hello").

import { spawn } from "node:child_process";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

// ---------------------------------------------------------------------------
// Verdicts and the two ways a case ends early

/** A check that does not match, a refused scripted action, a refused start
 * or deal: the case **failed** (CASES.md, Verdicts). */
class CaseFailure extends Error {}

/** A protocol fault: the case **errored** (PROTOCOL.md, "What the runner does
 * with a bad engine"); `reason` is one of that section's reasons. */
class ProtocolFault extends Error {
  constructor(reason, message) {
    super(`${reason}: ${message}`);
    this.reason = reason;
  }
}

const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x);

// ---------------------------------------------------------------------------
// The command line

function parseArgs(argv) {
  const args = { pack: null, engine: null, profile: null, json: null, skip: [], timeout: 5 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${flag} needs a value`);
      return argv[++i];
    };
    if (flag === "--pack") args.pack = value();
    else if (flag === "--engine") args.engine = value();
    else if (flag === "--profile") args.profile = value();
    else if (flag === "--json") args.json = value();
    else if (flag === "--skip") args.skip.push(value());
    else if (flag === "--timeout") args.timeout = Number(value());
    else if (flag === "-h" || flag === "--help") usage(null);
    else usage(`unknown argument ${flag}`);
  }
  if (!args.pack || !args.engine) usage("give --pack DIR and --engine COMMAND");
  if (!(args.timeout > 0)) usage("--timeout takes a number of seconds");
  return args;
}

function usage(problem) {
  const text =
    'usage: node run_pack.mjs --pack DIR --engine "COMMAND" [--profile P] [--json OUT] ' +
    "[--skip ID|GLOB]... [--timeout SECONDS]";
  if (problem) {
    console.error(`run_pack: ${problem}\n${text}`);
    process.exit(2);
  }
  console.log(text);
  process.exit(0);
}

/** Split a command line as a POSIX shell would (quotes, backslashes), to run
 * it without a shell (PROTOCOL.md: the engine is one process). */
function splitCommand(line) {
  const words = [];
  let word = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("unclosed ' in the engine command");
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      word = word ?? "";
      for (i++; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) i++;
        word += line[i];
      }
      if (i >= line.length) throw new Error('unclosed " in the engine command');
    } else if (c === "\\" && i + 1 < line.length) {
      word = (word ?? "") + line[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

function globToRegExp(glob) {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`^${escaped.replace(/\*/g, ".*").replace(/\?/g, ".")}$`);
}

// ---------------------------------------------------------------------------
// The pack (CASES.md, "The pack")

/** pack.json, the register, and every other *.json file at any depth as a
 * case file; case ids unique across the pack. */
function readPack(dir) {
  const pack = JSON.parse(readFileSync(join(dir, "pack.json"), "utf8"));
  let register = null;
  try {
    register = JSON.parse(readFileSync(join(dir, "spec-register.json"), "utf8"));
  } catch {
    register = null; // a pack without a register: profiles cannot be compared
  }
  const files = [];
  const walk = (folder) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const packFile = folder === dir && (name === "pack.json" || name === "spec-register.json");
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".json") && !packFile) files.push(path);
    }
  };
  walk(dir);
  const cases = [];
  const seen = new Set();
  for (const file of files) {
    const data = JSON.parse(readFileSync(file, "utf8"));
    for (const c of data.cases ?? []) {
      if (seen.has(c.id)) throw new Error(`case id ${c.id} twice in the pack`);
      seen.add(c.id);
      cases.push({ ...c, file: relative(dir, file) });
    }
  }
  return { pack, register, cases };
}

// ---------------------------------------------------------------------------
// The engine process (PROTOCOL.md: transport, sequence numbers, order)

// A line longer than this is a `flood`. (The other flood, lines nobody reads, cannot
// pile up here: each line is read as it comes, and one no request waits for is
// `unsolicited_output` at once.)
const MAX_LINE = 1024 * 1024;

/** One reply line read strictly (PROTOCOL.md, "Transport" and "Sequence
 * numbers"; the errored reasons `invalid_json`, `wrong_seq`, `schema`): UTF-8
 * (a byte order mark tolerated), one JSON object, no NaN or infinity, no number
 * beyond a double's range, no lone surrogate escape, nested at most 32 levels
 * deep, and a `seq` that is the request's integer (`2.0` and `true` are not 2). */
function readReply(bytes, seq) {
  const clip = (text) => text.slice(0, 200);
  let text;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ProtocolFault("invalid_json", "a reply that is not UTF-8 text");
  }
  if (text.startsWith("\ufeff")) text = text.slice(1);
  text = text.replace(/\r$/, "");
  let reply;
  try {
    reply = JSON.parse(text);
  } catch {
    throw new ProtocolFault("invalid_json", `a reply line that is not JSON: ${clip(text)}`);
  }
  if (!isObject(reply)) throw new ProtocolFault("invalid_json", `a reply that is not a JSON object: ${clip(text)}`);
  if (nestingDepth(text) > MAX_DEPTH) throw new ProtocolFault("schema", `a reply nested deeper than ${MAX_DEPTH} levels`);
  if (!readable(reply)) {
    throw new ProtocolFault("invalid_json", `a reply holding a number out of range or a lone surrogate: ${clip(text)}`);
  }
  if (reply.seq === null && reply.ok === false && "error" in reply) {
    throw new ProtocolFault("engine_error", `the engine could not read the request: ${reply.error}`);
  }
  if (topLevelNumber(text, "seq") !== String(seq)) {
    throw new ProtocolFault("wrong_seq", `the reply to request ${seq} carries seq ${JSON.stringify(reply.seq)}`);
  }
  return reply;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const MAX_DEPTH = 32;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Every number finite, every text (keys too) whole Unicode. */
function readable(value) {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value === "string") return !LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.every(readable);
  if (isObject(value)) return Object.entries(value).every(([k, v]) => readable(k) && readable(v));
  return true;
}

/** How deep the lists and objects of a JSON text nest (brackets outside strings). */
function nestingDepth(text) {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
    else if (c === "]" || c === "}") depth--;
  }
  return deepest;
}

/** The text of a top-level field of a JSON object, when it is a number or a
 * literal (`2`, `2.0`, `true`): JSON.parse reads 2.0 as 2, the protocol does not. */
function topLevelNumber(text, field) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
      if (depth === 1 && JSON.parse(text.slice(start, i + 1)) === field) {
        const rest = /^\s*:\s*([^\s,}\]]+)/.exec(text.slice(i + 1));
        if (rest) return rest[1];
      }
    } else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
  }
  return undefined;
}

class Engine {
  constructor(argv, timeoutSeconds) {
    this.argv = argv;
    this.timeout = timeoutSeconds * 1000;
    this.seq = 0;
    this.pending = []; // requests waiting for their replies, in order
    this.fault = null; // a fault seen between requests (unsolicited output, an exit)
    this.buffer = Buffer.alloc(0);
    this.stderrTail = "";
    this.child = null;
  }

  /** Start the process; a command that cannot be run is `launch_failed`. */
  async launch() {
    await new Promise((resolve, reject) => {
      let child;
      try {
        child = spawn(this.argv[0], this.argv.slice(1), {
          stdio: ["pipe", "pipe", "pipe"],
          detached: true, // a process group of its own, killed whole
        });
      } catch (err) {
        reject(new ProtocolFault("launch_failed", String(err.message ?? err)));
        return;
      }
      this.child = child;
      child.once("spawn", resolve);
      child.once("error", (err) => {
        const fault = new ProtocolFault("launch_failed", String(err.message ?? err));
        this.fail(fault);
        reject(fault);
      });
      child.stdout.on("data", (chunk) => this.onData(chunk));
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk) => {
        this.stderrTail = (this.stderrTail + chunk).slice(-2000);
      });
      child.stdin.on("error", () => {}); // an exit shows as `exited`
      child.on("exit", (code, signal) => {
        this.exited = true;
        this.fail(new ProtocolFault("exited", `the engine exited (${signal ?? code}); stderr: ${this.stderrTail.trim().split("\n").slice(-3).join(" | ")}`));
      });
    });
  }

  fail(fault) {
    if (!this.fault) this.fault = fault;
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(fault);
    }
  }

  onData(chunk) {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    let at;
    while ((at = this.buffer.indexOf(10)) >= 0) {
      const line = this.buffer.subarray(0, at);
      this.buffer = this.buffer.subarray(at + 1);
      this.onLine(line);
    }
    if (this.buffer.length > MAX_LINE) this.fail(new ProtocolFault("flood", "a line longer than 1 MiB"));
  }

  onLine(bytes) {
    if (bytes.length > MAX_LINE) return this.fail(new ProtocolFault("flood", "a line longer than 1 MiB"));
    const waiting = this.pending.shift();
    if (!waiting) {
      this.fail(new ProtocolFault("unsolicited_output", `a line printed when no request was waiting: ${bytes.toString("utf8", 0, 200)}`));
      return;
    }
    clearTimeout(waiting.timer);
    let reply;
    try {
      reply = readReply(bytes, waiting.seq);
    } catch (fault) {
      waiting.reject(fault);
      this.fail(fault);
      return;
    }
    waiting.resolve(reply);
  }

  /** What every reply must be, whatever the request (PROTOCOL.md, "Replies" and
   * the errored reasons): an `ok: false` with an `error` is an error reply
   * (`engine_error`), whatever was asked; `ok` is a boolean, and a `refused` an
   * object whose `clauses`, when given, is a list (`schema`). */
  static judgeReply(request, reply) {
    if (reply.ok === false && "error" in reply) {
      throw new ProtocolFault("engine_error", `${request.type}: ${reply.error}`);
    }
    if (typeof reply.ok !== "boolean") throw new ProtocolFault("schema", `${request.type} reply has no boolean 'ok'`);
    const refused = reply.refused;
    if (refused !== undefined && refused !== null && !(isObject(refused) && (refused.clauses === undefined || Array.isArray(refused.clauses)))) {
      throw new ProtocolFault("schema", `${request.type} reply's 'refused' is not an object with a 'clauses' list`);
    }
    return reply;
  }

  /** Send one request; the promise holds its reply (any `ok`). Requests may be
   * sent before the replies to earlier ones are read: they are answered in order. */
  send(request) {
    if (this.fault) return Promise.reject(this.fault);
    const seq = ++this.seq;
    return new Promise((resolve, reject) => {
      const waiting = { seq, resolve, reject, timer: null };
      waiting.timer = setTimeout(() => {
        this.fail(new ProtocolFault("timeout", `no reply to ${request.type} within ${this.timeout / 1000} s`));
      }, this.timeout);
      this.pending.push(waiting);
      this.child.stdin.write(JSON.stringify({ seq, ...request }) + "\n");
    }).then((reply) => Engine.judgeReply(request, reply));
  }

  /** A request that no `ok: false` answers (legal, state, result, hello): one is
   * an error (`engine_error`). */
  async ask(request) {
    const reply = await this.send(request);
    if (reply.ok !== true) throw new ProtocolFault("engine_error", `${request.type}: ${canonical(reply)}`);
    return reply;
  }

  /** `state`: its reply holds a `state` object with a text `phase` (else `schema`). */
  async state() {
    const { state } = await this.ask({ type: "state" });
    if (!isObject(state)) throw new ProtocolFault("schema", "state reply has no 'state' object");
    if (typeof state.phase !== "string") throw new ProtocolFault("schema", "state reply has no 'phase' text");
    return state;
  }

  /** `legal`: its reply holds an `actions` list, and a `player` that is a seat
   * number or null (else `schema`). */
  async legal() {
    return Engine.legalShape(await this.ask({ type: "legal" }));
  }

  static legalShape(reply) {
    if (!Array.isArray(reply.actions)) throw new ProtocolFault("schema", "legal reply has no 'actions' list");
    if (reply.player !== null && !Number.isInteger(reply.player)) {
      throw new ProtocolFault("schema", `legal reply's 'player' is ${canonical(reply.player)}, not a seat or null`);
    }
    return reply;
  }

  /** Say bye, then kill what is left (PROTOCOL.md, bye). */
  async close() {
    if (this.child && !this.exited && !this.fault) {
      try {
        await this.send({ type: "bye" });
      } catch {
        // the engine is killed below all the same
      }
    }
    this.kill();
  }

  /** Kill the engine's whole process group (PROTOCOL.md: after an errored case). */
  kill() {
    this.killed = true;
    if (!this.child || this.exited) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      try {
        this.child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
    this.exited = true;
  }
}

// ---------------------------------------------------------------------------
// The hello (PROTOCOL.md, "hello: the handshake")

const CAPABILITIES = [
  "raises", "raise_triple", "raise_four", "raise_gahwa", "ashkal", "second_session",
  "redeal", "pass_only_turns", "projects", "declarations", "game_score",
];

/** Read a hello strictly: the declared profile, overrides, readings and
 * capabilities; anything it cannot read is a `handshake` fault. */
function readHello(reply, register) {
  const bad = (field, expected) => {
    throw new ProtocolFault("handshake", `hello: ${field} ${expected}`);
  };
  if (reply.ok !== true) bad("ok", `must be true (error: ${reply.error ?? "none given"})`);
  if (reply.protocol !== 1) bad("protocol", "must be 1");
  if (typeof reply.name !== "string") bad("name", "must be a string");
  if (typeof reply.version !== "string") bad("version", "must be a string");
  if (typeof reply.profile !== "string") bad("profile", "must be a string");
  if ("batch" in reply && typeof reply.batch !== "boolean") bad("batch", "must be true or false");
  const variants = new Map((register?.variants ?? []).map((v) => [v.name, v.readings]));
  const profiles = register?.profiles ?? {};
  if (register && !(reply.profile in profiles)) bad("profile", `must be one of ${Object.keys(profiles).join(", ")}`);
  const overrides = reply.overrides ?? {};
  if (!isObject(overrides)) bad("overrides", "must be an object");
  for (const [variant, reading] of Object.entries(overrides)) {
    if (typeof reading !== "string") bad(`overrides.${variant}`, "must be a reading's name");
    if (register && !variants.has(variant)) bad(`overrides.${variant}`, "is no variant of the register");
    if (register && !variants.get(variant).includes(reading)) bad(`overrides.${variant}`, `has no reading ${reading}`);
  }
  const plays = { ...(profiles[reply.profile] ?? {}), ...overrides };
  const readings = reply.readings ?? {};
  if (!isObject(readings)) bad("readings", "must be an object");
  for (const [variant, list] of Object.entries(readings)) {
    if (!Array.isArray(list) || list.length === 0 || list.some((r) => typeof r !== "string")) {
      bad(`readings.${variant}`, "must be a non-empty list of readings");
    }
    if (register && !variants.has(variant)) bad(`readings.${variant}`, "is no variant of the register");
    for (const r of list) if (register && !variants.get(variant).includes(r)) bad(`readings.${variant}`, `has no reading ${r}`);
    if (variant in plays && !list.includes(plays[variant])) {
      bad(`readings.${variant}`, `lists ${list.join(", ")} but not ${plays[variant]}, the reading the engine plays`);
    }
  }
  const capabilities = reply.capabilities ?? [];
  if (!Array.isArray(capabilities)) bad("capabilities", "must be a list");
  for (const c of capabilities) if (!CAPABILITIES.includes(c)) bad("capabilities", `has no capability ${JSON.stringify(c)}`);
  if (new Set(capabilities).size !== capabilities.length) bad("capabilities", "lists a capability twice");
  // An engine implements a reading when it plays it or lists it (CASES.md).
  const implemented = {};
  for (const [variant, reading] of Object.entries(plays)) implemented[variant] = new Set([reading]);
  for (const [variant, list] of Object.entries(readings)) {
    implemented[variant] = new Set([...(implemented[variant] ?? []), ...list]);
  }
  return { profile: reply.profile, overrides, plays, implemented, capabilities: new Set(capabilities) };
}

// ---------------------------------------------------------------------------
// Which expectation a runner plays (CASES.md, "Which expectation a runner plays")

/** The readings of the run: the engine's own (its profile, its overrides on
 * top), or with --profile P, P's readings and nothing else. */
function runReadings(hello, register, profileGiven) {
  if (profileGiven) return { ...(register?.profiles?.[profileGiven] ?? {}) };
  return { ...hello.plays };
}

function implementsReading(hello, variant, reading) {
  return hello.implemented[variant]?.has(reading) ?? false;
}

/** A set of pins applies when, for every variant it names, the engine
 * implements at least one of the readings listed; with --profile, a reading
 * played for a variant the pins leave out must be one the engine implements. */
function pinsApply(pins, hello, run) {
  for (const [variant, pinned] of Object.entries(pins ?? {})) {
    const readings = Array.isArray(pinned) ? pinned : [pinned];
    if (!readings.some((r) => implementsReading(hello, variant, r))) return false;
  }
  if (run.profileGiven) {
    for (const [variant, reading] of Object.entries(run.readings)) {
      if (variant in (pins ?? {})) continue;
      if (!implementsReading(hello, variant, reading)) return false;
    }
  }
  return true;
}

/** Steps 1-4 and the capability check: the verdict when the case is not
 * played, else the expectation to play (the case, or an alternative's parts in
 * place of the case's). */
function chooseExpectation(testCase, hello, run) {
  const skipped = (re) => re.test(testCase.id) || (testCase.clauses ?? []).some((c) => re.test(c));
  if (run.skip.some(skipped)) {
    return { verdict: "skipped", message: "skipped by the user (--skip)" };
  }
  let played = null;
  if (pinsApply(testCase.requires, hello, run)) {
    played = { ...testCase, alternative: null };
  } else {
    const alternatives = testCase.alternatives ?? [];
    for (let i = 0; i < alternatives.length; i++) {
      const entry = alternatives[i];
      if (!pinsApply(entry.requires, hello, run)) continue;
      played = {
        ...testCase,
        requires: entry.requires,
        actions: entry.actions ?? testCase.actions,
        then: entry.then ?? testCase.then,
        expect: entry.expect ?? testCase.expect,
        capabilities: entry.capabilities ?? testCase.capabilities,
        scriptOnly: entry.script_only === true,
        alternative: i,
      };
      break;
    }
  }
  if (!played) {
    const lacking = Object.entries(testCase.requires ?? {})
      .filter(([variant, pinned]) => !(Array.isArray(pinned) ? pinned : [pinned]).some((r) => implementsReading(hello, variant, r)))
      .map(([variant, pinned]) => `${variant}=${[].concat(pinned).join("|")}`);
    return { verdict: "skipped", message: `the engine does not implement ${lacking.join(", ") || "the played readings"}` };
  }
  const lacking = (played.capabilities ?? []).filter((c) => !hello.capabilities.has(c));
  if (lacking.length) return { verdict: "unsupported", message: `needs ${lacking.join(", ")}` };
  return { played };
}

// ---------------------------------------------------------------------------
// What a missing capability leaves out (CASES.md, "What a missing capability leaves out")

const DROP_FROM_STATE = { declarations: ["declarations"], raises: ["raises", "locked"], game_score: ["totals"], pass_only_turns: ["bids"] };
const DROP_FROM_RESULT = { game_score: ["totals", "game_over", "winner"] };
const DROP_FROM_LEGAL = { declarations: "declare", raise_triple: "triple", raise_four: "four", raise_gahwa: "gahwa", ashkal: "ashkal" };

/** Declarations are sent and checked only for an engine with both
 * `declarations` and `projects` ("without `declarations` (or `projects`)"). */
function hasDeclarations(caps) {
  return caps.has("declarations") && caps.has("projects");
}

function viewState(expected, caps) {
  const view = { ...expected };
  for (const [cap, fields] of Object.entries(DROP_FROM_STATE)) {
    if (cap === "declarations" ? !hasDeclarations(caps) : !caps.has(cap)) for (const f of fields) delete view[f];
  }
  if (!caps.has("raise_gahwa") && Array.isArray(view.raises)) view.raises = withoutGahwaTurn(view.raises);
  return view;
}

/** Without `raise_gahwa` a four ends the raising: the pass that answers a four
 * (the bidder's gahwa turn) is left out of the expected `raises`. */
function withoutGahwaTurn(raises) {
  const kept = [];
  for (const entry of raises) {
    const answersFour = kept.length > 0 && kept[kept.length - 1]?.action === "four";
    if (!(answersFour && entry?.action === "pass")) kept.push(entry);
  }
  return kept;
}

function viewResult(expected, caps) {
  const view = { ...expected };
  for (const [cap, fields] of Object.entries(DROP_FROM_RESULT)) if (!caps.has(cap)) for (const f of fields) delete view[f];
  return view;
}

function viewLegal(actions, caps) {
  const dropped = Object.entries(DROP_FROM_LEGAL)
    .filter(([cap]) => (cap === "declarations" ? !hasDeclarations(caps) : !caps.has(cap)))
    .map(([, word]) => word);
  return actions.filter((a) => !dropped.includes(a.split(" ")[0]));
}

// ---------------------------------------------------------------------------
// Subset comparison (CASES.md, "Subset comparison")

// The lists the schemas mark "x-order": "free", by the field holding them:
// "inner" means the outer list is in order and each inner list free.
const ORDER_FREE = { cards: "list", declarations: "list", projects: "inner", hands: "inner" };
// Optional fields: checked only when the engine sends them (state: face_up,
// bids, locked, declarations; the contract's ashkal, in a state or a result;
// a project's cards, in a state's declarations or a result's projects).
const OPTIONAL = new Set(["face_up", "bids", "locked", "declarations", "contract.ashkal", "project.cards"]);
// The lists whose items are projects.
const PROJECT_LISTS = new Set(["declarations", "projects"]);

/** Canonical text of a value, object keys sorted, for set and sorted comparison. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  return JSON.stringify(value);
}

/** The differences between an expected value and the engine's, as "path:
 * expected X, got Y" lines (none: they match). `field` names the field the
 * value is held in (null at the top of a reply). */
function subsetDiff(expected, actual, path, field = null, listNames = null) {
  if (isObject(expected)) {
    if (!isObject(actual)) return [`${path}: expected an object, got ${canonical(actual)}`];
    const out = [];
    // a list item, cut to the fields any expected item of its list names: a field
    // kept so that this expected item does not name is a difference
    for (const key of Object.keys(actual)) {
      if (listNames?.has(key) && !(key in expected)) out.push(`${path}.${key}: expected no such field, got ${canonical(actual[key])}`);
    }
    for (const [key, want] of Object.entries(expected)) {
      if (!(key in actual)) {
        const optional = field === null ? OPTIONAL.has(key) : OPTIONAL.has(`${field}.${key}`);
        if (!optional) out.push(`${path}.${key}: expected ${canonical(want)}, the engine sent nothing`);
        continue;
      }
      out.push(...subsetDiff(want, actual[key], `${path}.${key}`, key));
    }
    return out;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${path}: expected a list ${canonical(expected)}, got ${canonical(actual)}`];
    if (expected.length !== actual.length) return [`${path}: expected ${canonical(expected)}, got ${canonical(actual)}`];
    const freedom = ORDER_FREE[field];
    if (freedom === "list") return orderFreeDiff(expected, actual, path, field);
    const out = [];
    const names = itemNames(expected);
    expected.forEach((want, i) => {
      if (freedom === "inner") {
        if (!Array.isArray(want) || !Array.isArray(actual[i]) || want.length !== actual[i].length) {
          out.push(`${path}[${i}]: expected ${canonical(want)}, got ${canonical(actual[i])}`);
        } else out.push(...orderFreeDiff(want, actual[i], `${path}[${i}]`, field));
      } else out.push(...subsetDiff(want, actual[i], `${path}[${i}]`, `${field}[]`, names));
    });
    return out;
  }
  if (expected === actual) return [];
  return [`${path}: expected ${canonical(expected)}, got ${canonical(actual)}`];
}

/** The fields any expected item of a list names (CASES.md: each engine item is cut to them). */
function itemNames(expected) {
  return new Set(expected.filter(isObject).flatMap((item) => Object.keys(item)));
}

/** An order-free list: each expected item must match (as a subset, above) an
 * engine item of its own, whatever their order. The lists are short: a plain
 * search for a matching that pairs them all. */
function orderFreeDiff(expected, actual, path, field) {
  const itemField = PROJECT_LISTS.has(field) ? "project" : `${field}[]`;
  const names = itemNames(expected);
  const matches = expected.map((want) =>
    actual.map((got, j) => (subsetDiff(want, got, path, itemField, names).length === 0 ? j : -1)).filter((j) => j >= 0),
  );
  const used = new Set();
  const pair = (i) => {
    if (i === expected.length) return true;
    for (const j of matches[i]) {
      if (used.has(j)) continue;
      used.add(j);
      if (pair(i + 1)) return true;
      used.delete(j);
    }
    return false;
  };
  if (pair(0)) return [];
  return [`${path}: expected ${canonical(expected)} (order free), got ${canonical(actual)}`];
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function checkSubset(what, expected, actual) {
  const diff = subsetDiff(expected, actual, what);
  if (diff.length) throw new CaseFailure(diff.join("; "));
}

// ---------------------------------------------------------------------------
// The protocol's normal form (PROTOCOL.md, "What is compared"): extra fields
// dropped at every depth, order-free lists sorted, an optional field compared
// only when both replies send it. Used for a refusal's "state unchanged".

const CONTRACT = { kind: null, trump: null, bidder: null, ashkal: null };
const SEAT_ACTION = { seat: null, action: null };
const PROJECT = { seat: null, kind: null, cards: "free" };
// A shape: null for a plain value; "free" for an order-free list of plain
// values; {fields} for an object; ["list", shape] / ["free", shape] for lists.
const STATE_SHAPE = {
  phase: null, dealer: null, current_player: null, face_up: null,
  hands: ["list", "free"], bids: ["list", SEAT_ACTION], contract: CONTRACT,
  raises: ["list", SEAT_ACTION], multiplier: null, locked: null,
  declarations: ["free", PROJECT], trick: ["list", { seat: null, card: null }],
  trick_winners: ["list", null], totals: ["list", null],
};
const LEGAL_SHAPE = { player: null, actions: "free" };
const STATE_OPTIONAL = ["face_up", "bids", "locked", "declarations"];

function normalForm(value, shape) {
  if (shape === null || value === null || value === undefined) return value;
  if (shape === "free") return Array.isArray(value) ? [...value].sort((a, b) => cmp(canonical(a), canonical(b))) : value;
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return value;
    const items = value.map((v) => normalForm(v, shape[1]));
    return shape[0] === "free" ? items.sort((a, b) => cmp(canonical(a), canonical(b))) : items;
  }
  if (!isObject(value)) return value;
  const out = {};
  for (const [k, sub] of Object.entries(shape)) if (k in value) out[k] = normalForm(value[k], sub);
  return out;
}

/** Two states in normal form, an optional field kept only when both send it
 * (a project's cards: only when every declaration of both sends them). */
function sameState(before, after) {
  const a = normalForm(before, STATE_SHAPE);
  const b = normalForm(after, STATE_SHAPE);
  if (!isObject(a) || !isObject(b)) return canonical(a) === canonical(b);
  for (const f of STATE_OPTIONAL) {
    if (!(f in a) || !(f in b)) {
      delete a[f];
      delete b[f];
    }
  }
  if (isObject(a.contract) && isObject(b.contract) && !("ashkal" in a.contract && "ashkal" in b.contract)) {
    delete a.contract.ashkal;
    delete b.contract.ashkal;
  }
  if (Array.isArray(a.declarations) && Array.isArray(b.declarations)) {
    const all = [...a.declarations, ...b.declarations];
    if (!all.every((d) => isObject(d) && "cards" in d)) {
      a.declarations = normalForm(a.declarations.map(({ cards, ...rest }) => rest), STATE_SHAPE.declarations);
      b.declarations = normalForm(b.declarations.map(({ cards, ...rest }) => rest), STATE_SHAPE.declarations);
    }
  }
  return canonical(a) === canonical(b);
}

// ---------------------------------------------------------------------------
// Playing a case (CASES.md, "Playing a case")

async function playCase(engine, played, hello, run) {
  const caps = hello.capabilities;
  await startGame(engine, played, hello, run);
  await playScript(engine, played.actions, caps);
  if (played.scriptOnly) return; // where the readings part ways with the case's script
  for (const round of played.then ?? []) await playRound(engine, round, caps);
  await checkKind(engine, played, caps);
  if (played.expect.state) await checkState(engine, played.expect.state, caps);
}

/** Step 1, `start` with the setup: the profile, the overrides (the readings
 * that differ from the profile: the engine's own, with the played pins on top,
 * of a pin's readings the first the engine implements), dealer, deck, totals. */
async function startGame(engine, played, hello, run) {
  const readings = { ...run.readings };
  for (const [variant, pinned] of Object.entries(played.requires ?? {})) {
    const list = Array.isArray(pinned) ? pinned : [pinned];
    // the first listed when the engine implements it, else the reading played
    // when listed, else the first listed that the engine implements
    if (implementsReading(hello, variant, list[0]) || !list.includes(readings[variant])) {
      readings[variant] = list.find((r) => implementsReading(hello, variant, r));
    }
  }
  const profileReadings = run.register?.profiles?.[run.profile] ?? {};
  const overrides = {};
  for (const [variant, reading] of Object.entries(readings)) {
    if (profileReadings[variant] !== reading) overrides[variant] = reading;
  }
  const setup = { profile: run.profile, overrides, dealer: played.setup.dealer, deck: played.setup.deck };
  if (played.setup.totals) setup.totals = played.setup.totals;
  const reply = await engine.send({ type: "start", setup });
  if (reply.ok !== true) {
    throw new CaseFailure(`the engine refused a start with readings it declared: ${canonical(reply)}`);
  }
}

/** Step 2 (and each round of step 3): the script, step by step (CASES.md, Steps). */
async function playScript(engine, steps, caps) {
  for (const step of steps ?? []) {
    if (typeof step === "string") await stepAction(engine, step, caps);
    else if ("repeat" in step) await stepRepeat(engine, step);
    else if ("if_asked" in step) await stepIfAsked(engine, step.if_asked, step.phase, caps);
    else if ("expect_legal" in step) await stepExpectLegal(engine, step.expect_legal, caps);
    else if ("expect_state" in step) await checkState(engine, step.expect_state, caps);
    else if ("expect_result" in step) await checkResult(engine, step.expect_result, caps);
    else throw new CaseFailure(`an unknown step ${canonical(step)}`);
  }
}

/** Split "S: ACTION" into its seat and action (no seat: the older form). */
function parseStep(text) {
  const m = /^([0-3]):\s*(.+)$/.exec(text);
  return m ? { seat: Number(m[1]), action: m[2] } : { seat: null, action: text };
}

/** Without `declarations`, the script's `declare` steps are not sent. */
function skippedForCapability(action, caps) {
  return action.split(" ")[0] === "declare" && !hasDeclarations(caps);
}

/** `apply` one scripted action: a refusal (`ok: false`) fails the case. */
function judgeApply(reply, action) {
  if (reply.ok === true) return;
  throw new CaseFailure(`the engine refused the scripted action ${JSON.stringify(action)}: ${canonical(reply.refused ?? reply)}`);
}

/** Steps "S: ACTION" and "ACTION": `legal` (the player must be S) and `apply`
 * sent together; the apply's reply is read, not judged, when the seat was
 * wrong: the case fails, and when that reply was a protocol fault the engine is
 * started afresh for the next case. */
async function stepAction(engine, text, caps) {
  const { seat, action } = parseStep(text);
  if (skippedForCapability(action, caps)) return;
  if (seat === null) {
    judgeApply(await engine.send({ type: "apply", action }), action);
    return;
  }
  const legalSent = engine.send({ type: "legal" }).then(Engine.legalShape);
  const applySent = engine.send({ type: "apply", action });
  applySent.catch(() => {}); // judged below, or not at all
  const legal = await legalSent;
  if (legal.player !== seat) {
    try {
      await applySent;
    } catch {
      engine.kill();
    }
    throw new CaseFailure(`the script has seat ${seat} ${JSON.stringify(action)}, but the engine asks seat ${canonical(legal.player)}`);
  }
  judgeApply(await applySent, action);
}

/** {"repeat": A, "while_phase": P, "max": N}: up to N times (default 8), ask
 * `state`; stop when its phase is not P; else apply A for whoever acts. */
async function stepRepeat(engine, step) {
  const max = step.max ?? 8;
  for (let i = 0; i < max; i++) {
    const state = await engine.state();
    if (!isObject(state) || state.phase !== step.while_phase) return;
    judgeApply(await engine.send({ type: "apply", action: step.repeat }), step.repeat);
  }
}

/** {"if_asked": "S: ACTION", "phase"?: P}: with a phase, do nothing unless the
 * state's phase is P; ask `legal`; apply the action when the player is S and the
 * legal set holds it; otherwise do nothing. */
async function stepIfAsked(engine, text, phase, caps) {
  const { seat, action } = parseStep(text);
  if (skippedForCapability(action, caps)) return;
  if (phase !== undefined) {
    const state = await engine.state();
    if (!isObject(state) || state.phase !== phase) return;
  }
  const legal = await engine.legal();
  if (legal.player === seat && Array.isArray(legal.actions) && legal.actions.includes(action)) {
    judgeApply(await engine.send({ type: "apply", action }), action);
  }
}

/** {"expect_legal": {"player"?, "actions"}}: exactly that set, order free, and
 * the player when named (null: nobody acts). */
async function stepExpectLegal(engine, expected, caps) {
  const legal = await engine.legal();
  checkLegal(expected, legal, caps);
}

function checkLegal(expected, legal, caps) {
  const problems = [];
  if ("player" in expected && legal.player !== expected.player) {
    problems.push(`player: expected ${JSON.stringify(expected.player)}, got ${JSON.stringify(legal.player)}`);
  }
  const want = [...new Set(viewLegal(expected.actions ?? [], caps))].sort();
  const got = Array.isArray(legal.actions) ? [...new Set(legal.actions)].sort() : null;
  if (!got || got.length !== legal.actions.length || canonical(want) !== canonical(got)) {
    problems.push(`actions: expected ${canonical(want)}, got ${canonical(legal.actions)}`);
  }
  if (problems.length) throw new CaseFailure(`legal ${problems.join("; ")}`);
}

/** {"expect_state": {...}} and `expect.state`: a subset check of `state`. */
async function checkState(engine, expected, caps) {
  const state = await engine.state();
  checkSubset("state", viewState(expected, caps), state);
}

/** {"expect_result": {...}} and a round's `result`: a subset check; null fails. */
async function checkResult(engine, expected, caps) {
  const { result } = await engine.ask({ type: "result" });
  if (result === null || result === undefined) throw new CaseFailure("result: expected a result, the engine has none (null)");
  checkSubset("result", viewResult(expected, caps), result);
}

/** Step 3, one round of `then`: `deal` its deck (a refusal fails), play its
 * actions, check its `result` when it has one. */
async function playRound(engine, round, caps) {
  const reply = await engine.send({ type: "deal", deck: round.deck });
  if (reply.ok !== true) throw new CaseFailure(`the engine refused a deal: ${canonical(reply)}`);
  await playScript(engine, round.actions, caps);
  if (round.result) await checkResult(engine, round.result, caps);
}

/** Step 4, the check of the kind (CASES.md, "Expectations by kind"). */
async function checkKind(engine, played, caps) {
  const expect = played.expect;
  switch (played.kind) {
    case "legal":
      checkLegal(expect, await engine.legal(), caps);
      return;
    case "illegal":
      return checkIllegal(engine, expect.action);
    case "trick": {
      const state = await engine.state();
      if (canonical(state?.trick_winners) !== canonical(expect.trick_winners)) {
        throw new CaseFailure(`state.trick_winners: expected ${canonical(expect.trick_winners)}, got ${canonical(state?.trick_winners)}`);
      }
      return;
    }
    case "round":
    case "game":
      return checkResult(engine, expect.result, caps);
    default:
      throw new CaseFailure(`an unknown kind ${played.kind}`);
  }
}

/** `illegal`: ask state and legal, apply the action: it must be refused; ask
 * state and legal again: both the same as before in the normal form. */
async function checkIllegal(engine, action) {
  const before = await engine.state();
  const legalBefore = await engine.legal();
  const reply = await engine.send({ type: "apply", action });
  if (reply.ok === true) throw new CaseFailure(`the engine accepted the illegal action ${JSON.stringify(action)}`);
  const after = await engine.state();
  const legalAfter = await engine.legal();
  if (!sameState(before, after)) {
    throw new CaseFailure(`the refusal changed the state: before ${canonical(before)}, after ${canonical(after)}`);
  }
  if (canonical(normalForm(legalBefore, LEGAL_SHAPE)) !== canonical(normalForm(legalAfter, LEGAL_SHAPE))) {
    throw new CaseFailure(`the refusal changed the legal set: before ${canonical(legalBefore.actions)}, after ${canonical(legalAfter.actions)}`);
  }
}

// ---------------------------------------------------------------------------
// The run (PROTOCOL.md, "What the runner does with a bad engine")

/** Start the engine and read its hello (PROTOCOL.md, "hello"): a command that
 * cannot be run is `launch_failed`, any other failure a `handshake` fault. */
async function startEngine(argv, run) {
  const engine = new Engine(argv, run.timeout);
  try {
    await engine.launch();
    const reply = await engine.send({ type: "hello", protocol: 1 });
    const hello = readHello(reply, run.register);
    return { engine, hello };
  } catch (err) {
    engine.kill();
    if (err instanceof ProtocolFault && err.reason !== "launch_failed" && err.reason !== "handshake") {
      throw new ProtocolFault("handshake", err.message);
    }
    throw err;
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const { pack, register, cases } = readPack(args.pack);
  const argv = splitCommand(args.engine);
  if (argv.length === 0) usage("the engine command is empty");
  const run = { register, timeout: args.timeout, skip: args.skip.map(globToRegExp), profileGiven: args.profile !== null };
  const verdicts = {};
  let engine = null;
  let hello = null;
  let failedStarts = 0;
  let startFault = null;
  let everStarted = false;
  const counts = { passed: 0, failed: 0, errored: 0, skipped: 0, unsupported: 0 };
  console.log(`pack ${pack.name} ${pack.version}: ${cases.length} cases; engine: ${args.engine}`);
  for (const testCase of cases) {
    let verdict;
    let message = "";
    if (!engine && failedStarts < 3) {
      try {
        ({ engine, hello } = await startEngine(argv, run));
        everStarted = true;
        failedStarts = 0;
        run.profile = args.profile ?? hello.profile;
        run.readings = runReadings(hello, register, args.profile);
      } catch (err) {
        failedStarts += 1;
        startFault = err;
        engine = null;
      }
    }
    if (!engine) {
      verdict = "errored";
      message = startFault.message;
    } else {
      const chosen = chooseExpectation(testCase, hello, run);
      if (chosen.verdict) {
        verdict = chosen.verdict;
        message = chosen.message;
      } else {
        try {
          await playCase(engine, chosen.played, hello, run);
          verdict = "passed";
        } catch (err) {
          if (err instanceof CaseFailure) {
            verdict = "failed";
            message = err.message;
          } else if (err instanceof ProtocolFault) {
            verdict = "errored";
            message = err.message;
          } else throw err;
        }
        if (chosen.played.alternative !== null) {
          const pins = Object.entries(chosen.played.requires).map(([v, r]) => `${v}=${[].concat(r).join("|")}`).join(", ");
          message = `played as alternatives[${chosen.played.alternative}] (${pins})${message ? ": " + message : ""}`;
        }
      }
      if (verdict === "errored" || engine.killed) {
        engine.kill(); // a fresh engine for the next case
        engine = null;
      }
    }
    verdicts[testCase.id] = verdict;
    counts[verdict] += 1;
    console.log(`${verdict.padEnd(11)} ${testCase.id}${message ? "  " + message : ""}`);
  }
  if (engine) await engine.close();
  console.log(Object.entries(counts).map(([k, v]) => `${v} ${k}`).join(", "));
  if (args.json) writeFileSync(args.json, JSON.stringify(verdicts, null, 1) + "\n");
  if (!everStarted) process.exit(3);
  process.exit(counts.failed || counts.errored ? 1 : 0);
}

main().catch((err) => {
  console.error(`run_pack: ${err.stack ?? err}`);
  process.exit(2);
});
