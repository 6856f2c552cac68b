#!/usr/bin/env node
// Verifies Plangate's passkey-signed decisions without trusting Plangate's server, with only
// Node's own crypto: every approval in a hand-off (GET /api/plans/{id}/approved), or every
// gate decision in a run (GET /api/runs/{id}), against the published keys (GET /api/keys).
// The recipe is docs/security.md, "Passkey-signed decisions"; clients/python/verify_approvals.py
// is an independent second implementation of it.
//
//   node scripts/verify-approvals.mjs HANDOFF.json KEYS.json [--origin URL] [--plan ID]
//
// Either file may be "-" for standard input. Exits 0 when every decision verifies, 1 when
// any does not (each failure is named), 2 for bad usage or unreadable input.

import { createHash, createPublicKey, verify } from 'node:crypto';
import { readFileSync } from 'node:fs';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

class Failure extends Error {}

function fail(message) {
  throw new Failure(message);
}

/** RFC 8785 canonical JSON: sorted keys (by UTF-16 code units), no whitespace, ES number and string forms. */
export function canonicalJson(value) {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) fail('a signed value is not a finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

const sha256 = (data) => createHash('sha256').update(data).digest();

function bytes(text, what) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*$/.test(text)) fail(`${what} is not base64url`);
  return Buffer.from(text, 'base64url');
}

function originAllowed(origin, rpId, pinned) {
  if (pinned) return origin === pinned;
  let url;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const scoped = url.hostname === rpId || url.hostname.endsWith(`.${rpId}`);
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
  return url.origin === origin && scoped && secure;
}

function same(field, signed, expected) {
  const a = canonicalJson(signed ?? null);
  const b = canonicalJson(expected ?? null);
  if (a !== b) fail(`the signature is over ${field} ${a}, but the decision is on ${b}`);
}

/**
 * One decision: `expected` is what the document says was decided (plan, revision, hashes,
 * verdict, gate), `decider` who decided it. Throws a Failure naming the first problem.
 */
export function verifyDecision({ signature, expected, decider }, keys, options = {}) {
  if (!signature) fail('it is not signed');
  const { kid, signed, webauthn } = signature;
  if (!signed || typeof signed !== 'object' || !webauthn) fail('its signature is incomplete');
  const key = keys.find((candidate) => candidate.kid === kid);
  if (!key) fail(`no published key has kid ${String(kid).slice(0, 24)}`);
  if (key.username !== decider) fail(`key ${kid.slice(0, 16)}… belongs to ${key.username}, but ${decider} decided`);

  // 1. The signed object is exactly this decision.
  for (const field of ['plan_id', 'revision', 'content_hash', 'resources_hash', 'decision', 'gate']) same(field, signed[field], expected[field]);
  const at = Date.parse(signed.at);
  if (typeof signed.at !== 'string' || Number.isNaN(at)) fail('the signed time is not a date');
  if (key.revoked_at && Date.parse(key.revoked_at) <= at) fail(`key ${kid.slice(0, 16)}… was revoked at ${key.revoked_at}, before the decision (${signed.at})`);

  // 2. The challenge is the hash of the signed object.
  const challenge = sha256(Buffer.from(canonicalJson(signed), 'utf8')).toString('base64url');
  const clientDataJSON = bytes(webauthn.clientDataJSON, 'clientDataJSON');
  let client;
  try {
    client = JSON.parse(clientDataJSON.toString('utf8'));
  } catch {
    fail('clientDataJSON is not JSON');
  }
  if (client.type !== 'webauthn.get') fail(`clientDataJSON.type is ${JSON.stringify(client.type)}, not "webauthn.get"`);
  if (client.challenge !== challenge) fail('clientDataJSON.challenge is not the hash of the signed decision');
  if (!originAllowed(client.origin, key.rp_id, options.origin)) fail(`it was signed on ${client.origin}, not on ${options.origin ?? `an origin of ${key.rp_id}`}`);

  // 3. authenticatorData: the RP id hash, user present and user verified.
  const authenticatorData = bytes(webauthn.authenticatorData, 'authenticatorData');
  if (authenticatorData.length < 37) fail('authenticatorData is too short');
  if (!authenticatorData.subarray(0, 32).equals(sha256(Buffer.from(key.rp_id, 'utf8')))) fail(`authenticatorData is not for RP id ${key.rp_id}`);
  const flags = authenticatorData[32];
  if (!(flags & 0x01)) fail('the user was not present (UP flag unset)');
  if (!(flags & 0x04)) fail('the user was not verified (UV flag unset)');

  // 4. The signature over authenticatorData || SHA-256(clientDataJSON), with the published key.
  const data = Buffer.concat([authenticatorData, sha256(clientDataJSON)]);
  const publicKey = createPublicKey({ key: key.jwk, format: 'jwk' });
  const signatureBytes = bytes(webauthn.signature, 'signature');
  const ok =
    key.alg === 'ES256'
      ? verify('sha256', data, { key: publicKey, dsaEncoding: 'der' }, signatureBytes)
      : key.alg === 'EdDSA'
        ? verify(null, data, publicKey, signatureBytes)
        : fail(`key ${kid.slice(0, 16)}… has algorithm ${key.alg}, which this verifier does not know`);
  if (!ok) fail(`the signature does not verify with key ${kid.slice(0, 16)}…`);
  return { kid, alg: key.alg, at: signed.at };
}

/** The decisions a document carries, each with what it must bind. */
export function decisionsOf(document, options = {}) {
  if (Array.isArray(document?.approvals)) {
    const planId = options.plan ?? document.plan_id;
    if (typeof planId !== 'string') fail('the hand-off names no plan_id; pass --plan');
    if (!document.approvals.length) fail('the hand-off carries no approvals');
    return document.approvals.map((approval) => ({
      label: `approval ${approval.id} by ${approval.reviewer}`,
      decider: approval.reviewer,
      signature: approval.signature,
      expected: {
        plan_id: planId,
        revision: approval.revision,
        content_hash: document.content_hash,
        resources_hash: document.resources?.hash,
        decision: approval.decision === 'approved' ? 'approved' : fail(`approval ${approval.id} is a ${approval.decision}, not an approval`),
      },
      extra: () => {
        if (approval.content_hash !== document.content_hash) fail(`approval ${approval.id} names ${approval.content_hash}, not the hand-off's ${document.content_hash}`);
      },
    }));
  }
  if (Array.isArray(document?.tasks) && typeof document.run_id === 'string') {
    if (options.plan && options.plan !== document.plan_id) fail(`the run is of plan ${document.plan_id}, not ${options.plan}`);
    const decided = document.tasks.filter((task) => task.gate);
    if (!decided.length) fail('the run carries no gate decisions');
    return decided.map((task) => ({
      label: `gate ${task.task_id} (${task.gate.decision}) by ${task.gate.decided_by}`,
      decider: task.gate.decided_by,
      signature: task.gate.signature,
      expected: {
        plan_id: document.plan_id,
        revision: document.revision,
        content_hash: document.content_hash,
        resources_hash: document.resources_hash,
        decision: task.gate.decision,
        gate: { run_id: document.run_id, task_id: task.task_id, input_hash: task.gate.input_hash },
      },
      extra: () => {},
    }));
  }
  fail('the document is neither a hand-off (approvals) nor a run (tasks)');
}

/** Verifies every decision; returns the lines to print and whether all verified. */
export function verifyDocument(document, keysDocument, options = {}) {
  const keys = Array.isArray(keysDocument?.keys) ? keysDocument.keys : fail('the keys document has no "keys" list (GET /api/keys)');
  const lines = [];
  let ok = true;
  for (const decision of decisionsOf(document, options)) {
    try {
      decision.extra();
      const { kid, alg, at } = verifyDecision(decision, keys, options);
      lines.push(`ok    ${decision.label}: signed ${at} with ${alg} key ${kid.slice(0, 16)}…`);
    } catch (error) {
      if (!(error instanceof Failure)) throw error;
      ok = false;
      lines.push(`FAIL  ${decision.label}: ${error.message}`);
    }
  }
  return { ok, lines };
}

function readJson(path, what) {
  const text = readFileSync(path === '-' ? 0 : path, 'utf8');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Failure(`${what} (${path}) is not JSON: ${error.message}`);
  }
}

function main(argv) {
  const files = [];
  const options = {};
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--origin' || argv[i] === '--plan') options[argv[i].slice(2)] = argv[++i];
    else if (argv[i] === '-h' || argv[i] === '--help') files.length = 99;
    else files.push(argv[i]);
  }
  if (files.length !== 2 || (files[0] === '-' && files[1] === '-') || Object.values(options).includes(undefined)) {
    process.stderr.write('usage: node scripts/verify-approvals.mjs HANDOFF_OR_RUN.json KEYS.json [--origin URL] [--plan ID]   ("-" reads standard input)\n');
    return 2;
  }
  let result;
  try {
    result = verifyDocument(readJson(files[0], 'the hand-off'), readJson(files[1], 'the keys'), options);
  } catch (error) {
    if (!(error instanceof Failure) && error?.code !== 'ENOENT') throw error;
    process.stderr.write(`verify-approvals: ${error.message}\n`);
    return error instanceof Failure ? 1 : 2;
  }
  process.stdout.write(`${result.lines.join('\n')}\n`);
  process.stdout.write(result.ok ? `All ${result.lines.length} decisions verify.\n` : 'Some decisions do NOT verify: do not run this.\n');
  return result.ok ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
