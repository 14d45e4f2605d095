#!/usr/bin/env node
// A template adapter in JavaScript (Node 18 or later, no packages): copy this file,
// replace the toy engine with yours. adapter_template.py is the same in Python.
//
// The conformance runner starts this script once per run and speaks JSON lines over
// stdin/stdout (see PROTOCOL.md): every request has a `seq`, every reply echoes it.
// Print nothing else to stdout; log to stderr (console.error).
//
//     baloot conform --engine "node my_adapter.js"
//
// The toy engine below knows almost nothing about Baloot (it answers every request in
// the right shape, so the template runs as is and passes `--validate-protocol`, while
// failing the cases). Each `>>> PLUG IN` marks where your engine's API goes.

"use strict";

const fs = require("fs");
const path = require("path");
const readline = require("readline");

// What the toy engine throws for an illegal action.
class Refused extends Error {}

// >>> PLUG IN: replace this class with your engine (or a wrapper of it).
class ToyEngine {
  constructor(profile, overrides, dealer, deck) {
    this.profile = profile;
    this.overrides = overrides;
    this.dealer = dealer;
    this.deck = deck;
    this.player = (dealer + 1) % 4; // the dealer's right bids first
    this.passes = 0;
  }

  legalActions() {
    return this.passes < 8 ? ["pass"] : [];
  }

  apply(action) {
    if (!this.legalActions().includes(action)) {
      throw new Refused(`${JSON.stringify(action)} is not legal here`);
    }
    this.passes += 1;
    this.player = (this.player + 1) % 4;
  }

  state() {
    const hands = [0, 1, 2, 3].map((k) => this.deck.slice(5 * k, 5 * k + 5));
    const bidding = this.passes < 8;
    return {
      phase: bidding ? "bidding" : "deal",
      dealer: this.dealer,
      current_player: bidding ? this.player : null,
      face_up: this.deck[20],
      hands: [0, 1, 2, 3].map((seat) => hands[(((seat - this.dealer - 1) % 4) + 4) % 4]),
      contract: null,
      raises: [],
      multiplier: 1,
      trick: [],
      trick_winners: [],
      totals: [0, 0],
    };
  }
}

// Translates protocol requests to engine calls. One per run.
class Session {
  constructor() {
    this.engine = null;
  }

  hello(request) {
    // >>> PLUG IN: what your engine plays and implements (PROTOCOL.md, `hello`).
    return {
      protocol: 1,
      name: "toy-engine-js",
      version: "0.0.1",
      // the profile it plays: "literal" or "federation"
      profile: "literal",
      // variant -> the reading it plays where that differs from the profile,
      // e.g. {sun_overcall: "earlier_seat_priority"}
      overrides: {},
      // variant -> every reading it can play when a start asks for it (the one it plays
      // among them); a variant left out: only the reading it plays
      readings: {},
      // the parts of the game it implements (the toy: none). All of them: "raises",
      // "raise_triple", "raise_four", "raise_gahwa", "ashkal", "second_session", "redeal",
      // "pass_only_turns", "projects", "declarations", "game_score".
      capabilities: [],
    };
  }

  start(request) {
    const setup = request.setup;
    const register = loadRegister();
    if (register !== null) {
      // >>> PLUG IN: your hello's `readings` as `implemented`
      startReadings(setup, register, {});
    }
    // >>> PLUG IN: build a game from the pinned setup; never shuffle yourself.
    this.engine = new ToyEngine(setup.profile, setup.overrides, setup.dealer, setup.deck);
    return {};
  }

  deal(request) {
    // >>> PLUG IN: deal your game's next round from the pinned deck. Your rules say
    // who deals it (after a redeal, variant A20); the toy just moves the deal on.
    const old = this.currentEngine();
    this.engine = new ToyEngine(old.profile, old.overrides, (old.dealer + 1) % 4, request.deck);
    return {};
  }

  legal(request) {
    const engine = this.currentEngine();
    return { player: engine.state().current_player, actions: engine.legalActions() };
  }

  apply(request) {
    try {
      this.currentEngine().apply(request.action);
    } catch (error) {
      // >>> PLUG IN: your engine's illegal-action exception
      if (error instanceof Refused) {
        return { ok: false, refused: { reason: error.message } };
      }
      throw error;
    }
    return {};
  }

  state(request) {
    return { state: this.currentEngine().state() };
  }

  result(request) {
    return { result: null }; // >>> PLUG IN: the round result once a round is over
  }

  bye(request) {
    return {};
  }

  currentEngine() {
    if (this.engine === null) {
      throw new Error("no game: send start first");
    }
    return this.engine;
  }
}

// -------------------------------------------------------------------------------------
// Checking a `start` request against the spec register (no packages).
//
// The register, `cases/spec-register.json` in the pack (beside this file in a checkout or
// an installed `baloot`, at baloot/conformance/cases/), lists every variant with its
// readings, and each profile's reading of every variant. `startReadings` turns a
// start's `profile` and `overrides` into the reading of every variant, and refuses a
// profile, variant or reading the register does not name, or one `implemented` (your
// hello's `readings`) leaves out. Point BALOOT_SPEC_REGISTER at the register when the
// template does not sit in the pack; without a register the check is skipped.

let register;

function loadRegister() {
  if (register === undefined) {
    const file = process.env.BALOOT_SPEC_REGISTER ||
      path.join(__dirname, "cases", "spec-register.json");
    register = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : null;
  }
  return register;
}

function startReadings(setup, register, implemented) {
  const readings = new Map(register.variants.map((v) => [v.name, v.readings]));
  const profile = setup.profile;
  if (!Object.prototype.hasOwnProperty.call(register.profiles, profile)) {
    throw new Error(`unknown profile ${JSON.stringify(profile)}; the register has ` +
      Object.keys(register.profiles).join(", "));
  }
  const chosen = { ...register.profiles[profile] };
  for (const [variant, reading] of Object.entries(setup.overrides || {})) {
    if (!readings.has(variant)) {
      throw new Error(`unknown variant ${JSON.stringify(variant)} in overrides`);
    }
    if (!readings.get(variant).includes(reading)) {
      throw new Error(`${variant}: unknown reading ${JSON.stringify(reading)}; expected one ` +
        `of ${readings.get(variant).join(", ")}`);
    }
    chosen[variant] = reading;
  }
  for (const variant of Object.keys(chosen).sort()) {
    const can = (implemented || {})[variant];
    if (can !== undefined && !can.includes(chosen[variant])) {
      throw new Error(`${variant}=${chosen[variant]} is not implemented`);
    }
  }
  return chosen;
}
// -------------------------------------------------------------------------------------

function answer(session, line) {
  let request;
  try {
    request = JSON.parse(line);
    if (request === null || typeof request !== "object" || Array.isArray(request) ||
        !Number.isInteger(request.seq) || typeof request.type !== "string") {
      throw new Error("not an object with an integer seq and a type");
    }
  } catch (error) {
    return [{ seq: null, ok: false, error: `bad request: ${error.message}` }, null];
  }
  const { seq, type } = request;
  try {
    const handler = Session.prototype.hasOwnProperty(type) && type !== "constructor" &&
      type !== "currentEngine" ? session[type] : undefined;
    if (handler === undefined) {
      throw new Error(`unknown request type ${JSON.stringify(type)}`);
    }
    return [{ seq, ok: true, ...handler.call(session, request) }, type];
  } catch (error) { // report engine errors; never die on one request
    return [{ seq, ok: false, error: `${error.name}: ${error.message}` }, type];
  }
}

function main() {
  const session = new Session();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  let finished = false; // after `bye`, lines already read are left unanswered
  lines.on("line", (line) => {
    if (finished || line.trim() === "") {
      return;
    }
    const [reply, type] = answer(session, line);
    // One line per reply; a pipe's writes are synchronous on Linux, and the callback
    // of the last one lets `bye` exit only once its reply is out.
    if (type === "bye") {
      finished = true;
      lines.close();
      process.stdout.write(JSON.stringify(reply) + "\n", () => process.exit(0));
    } else {
      process.stdout.write(JSON.stringify(reply) + "\n");
    }
  });
}

main();
