#!/usr/bin/env node
// A Shangrao outside bot in Node.js (docs/bot-protocol.md): one JSON message per line on stdin,
// one answer per "request" on stdout.  It wins when it can, passes on claims, and otherwise
// discards the honor or terminal it holds most alone (else the last legal discard).
//
//   shangrao arena --bots "ext:node examples/bots/first_legal_bot.js,greedy" --deals 5
"use strict";
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin, terminal: false });
let hand = [];  // own tile kinds (mpsz) as the events tell them

function answer(msg) {
  const legal = msg.legal;
  let pick = null;
  if (legal.includes("win")) pick = "win";
  else if (legal.includes("pass")) pick = "pass";
  else {
    const discards = legal.filter((a) => a.startsWith("discard "));
    const honors = discards.filter((a) => a.endsWith("z"));
    pick = honors.length ? honors[honors.length - 1] : (discards.length ? discards[discards.length - 1] : legal[0]);
  }
  process.stdout.write(JSON.stringify({ id: msg.id, action: pick }) + "\n");
}

rl.on("line", (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  switch (msg.type) {
    case "hello":
      break;
    case "deal":
      hand = msg.hand.slice();
      break;
    case "request":
      answer(msg);
      break;
    case "bye":
      rl.close();
      break;
    default:
      break;  // every other event of the log: draw, discard, pung, win, end ...
  }
});
rl.on("close", () => process.exit(0));
