#!/usr/bin/env python3
"""Verify Plangate's passkey-signed decisions without trusting Plangate's server.

Checks every approval in a hand-off (GET /api/plans/{id}/approved), or every gate decision
in a run (GET /api/runs/{id}), against the published keys (GET /api/keys), following
docs/security.md, "Passkey-signed decisions". An independent second implementation of
scripts/verify-approvals.mjs: the standard library plus `cryptography`.

    python3 clients/python/verify_approvals.py HANDOFF.json KEYS.json [--origin URL] [--plan ID]

Either file may be "-" for standard input. Exits 0 when every decision verifies, 1 when any
does not (each failure is named), 2 for bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import os
import re
import sys
from datetime import datetime
from urllib.parse import urlsplit

try:
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:  # pragma: no cover - said plainly, never a silent pass
    sys.stderr.write("verify_approvals: the Python package 'cryptography' is missing; install it (pip install cryptography)\n")
    raise

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plangate import canonical_json as _canonical_json  # noqa: E402 - the one canonical JSON of this folder

LOOPBACK = {"localhost", "127.0.0.1", "::1"}
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]*$")


class Failure(Exception):
    """A decision that does not verify, with the reason."""


def canonical_json(value) -> str:
    """RFC 8785 canonical JSON, by the client's implementation (floats in ECMAScript form included)."""
    try:
        return _canonical_json(value)
    except (TypeError, ValueError) as error:
        raise Failure(f"a signed value cannot be canonicalised: {error}") from None


def _sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def _b64url(text, what: str) -> bytes:
    if not isinstance(text, str) or not _BASE64URL.match(text):
        raise Failure(f"{what} is not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _b64url_text(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _when(text) -> datetime:
    try:
        return datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError as error:
        raise Failure(f"{text!r} is not a date") from error


def _origin_allowed(origin, rp_id: str, pinned: str | None) -> bool:
    if pinned:
        return origin == pinned
    if not isinstance(origin, str):
        return False
    try:
        url = urlsplit(origin)
        host = url.hostname or ""
    except ValueError:
        return False
    if url.path or url.query or url.fragment:
        return False
    scoped = host == rp_id or host.endswith("." + rp_id)
    secure = url.scheme == "https" or (url.scheme == "http" and host in LOOPBACK)
    return scoped and secure


def _public_key(key: dict):
    jwk = key.get("jwk") or {}
    if key.get("alg") == "ES256" and jwk.get("kty") == "EC" and jwk.get("crv") == "P-256":
        x = int.from_bytes(_b64url(jwk.get("x"), "the key's x"), "big")
        y = int.from_bytes(_b64url(jwk.get("y"), "the key's y"), "big")
        return ec.EllipticCurvePublicNumbers(x, y, ec.SECP256R1()).public_key()
    if key.get("alg") == "EdDSA" and jwk.get("kty") == "OKP" and jwk.get("crv") == "Ed25519":
        return Ed25519PublicKey.from_public_bytes(_b64url(jwk.get("x"), "the key's x"))
    raise Failure(f"key {str(key.get('kid'))[:16]}… has algorithm {key.get('alg')}, which this verifier does not know")


def verify_decision(signature, expected: dict, decider: str, keys: list, origin: str | None = None) -> dict:
    """Verify one decision's signature; raises Failure naming the first problem."""
    if not signature:
        raise Failure("it is not signed")
    kid, signed, webauthn = signature.get("kid"), signature.get("signed"), signature.get("webauthn")
    if not isinstance(signed, dict) or not isinstance(webauthn, dict):
        raise Failure("its signature is incomplete")
    key = next((candidate for candidate in keys if candidate.get("kid") == kid), None)
    if key is None:
        raise Failure(f"no published key has kid {str(kid)[:24]}")
    if key.get("username") != decider:
        raise Failure(f"key {kid[:16]}… belongs to {key.get('username')}, but {decider} decided")

    # 1. The signed object is exactly this decision.
    for field in ("plan_id", "revision", "content_hash", "resources_hash", "decision", "gate"):
        got, want = canonical_json(signed.get(field)), canonical_json(expected.get(field))
        if got != want:
            raise Failure(f"the signature is over {field} {got}, but the decision is on {want}")
    at = _when(signed.get("at"))
    if key.get("revoked_at") and _when(key["revoked_at"]) <= at:
        raise Failure(f"key {kid[:16]}… was revoked at {key['revoked_at']}, before the decision ({signed.get('at')})")

    # 2. The challenge is the hash of the signed object.
    challenge = _b64url_text(_sha256(canonical_json(signed).encode("utf-8")))
    client_data = _b64url(webauthn.get("clientDataJSON"), "clientDataJSON")
    try:
        client = json.loads(client_data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise Failure("clientDataJSON is not JSON") from error
    if client.get("type") != "webauthn.get":
        raise Failure(f"clientDataJSON.type is {client.get('type')!r}, not 'webauthn.get'")
    if client.get("challenge") != challenge:
        raise Failure("clientDataJSON.challenge is not the hash of the signed decision")
    if not _origin_allowed(client.get("origin"), key["rp_id"], origin):
        raise Failure(f"it was signed on {client.get('origin')}, not on {origin or 'an origin of ' + key['rp_id']}")

    # 3. authenticatorData: the RP id hash, user present and user verified.
    authenticator_data = _b64url(webauthn.get("authenticatorData"), "authenticatorData")
    if len(authenticator_data) < 37:
        raise Failure("authenticatorData is too short")
    if authenticator_data[:32] != _sha256(key["rp_id"].encode("utf-8")):
        raise Failure(f"authenticatorData is not for RP id {key['rp_id']}")
    flags = authenticator_data[32]
    if not flags & 0x01:
        raise Failure("the user was not present (UP flag unset)")
    if not flags & 0x04:
        raise Failure("the user was not verified (UV flag unset)")

    # 4. The signature over authenticatorData || SHA-256(clientDataJSON), with the published key.
    data = authenticator_data + _sha256(client_data)
    public_key = _public_key(key)
    try:
        if key["alg"] == "ES256":
            public_key.verify(_b64url(webauthn.get("signature"), "signature"), data, ec.ECDSA(hashes.SHA256()))
        else:
            public_key.verify(_b64url(webauthn.get("signature"), "signature"), data)
    except InvalidSignature as error:
        raise Failure(f"the signature does not verify with key {kid[:16]}…") from error
    return {"kid": kid, "alg": key["alg"], "at": signed.get("at")}


def decisions_of(document, plan: str | None = None) -> list:
    """The decisions a hand-off or run carries, each with what it must bind."""
    if isinstance(document, dict) and isinstance(document.get("approvals"), list):
        plan_id = plan or document.get("plan_id")
        if not isinstance(plan_id, str):
            raise Failure("the hand-off names no plan_id; pass --plan")
        if not document["approvals"]:
            raise Failure("the hand-off carries no approvals")
        out = []
        for approval in document["approvals"]:
            if approval.get("decision") != "approved":
                raise Failure(f"approval {approval.get('id')} is a {approval.get('decision')}, not an approval")
            mismatch = approval.get("content_hash") != document.get("content_hash")
            out.append(
                {
                    "label": f"approval {approval.get('id')} by {approval.get('reviewer')}",
                    "decider": approval.get("reviewer"),
                    "signature": approval.get("signature"),
                    "mismatch": f"approval {approval.get('id')} names {approval.get('content_hash')}, not the hand-off's {document.get('content_hash')}" if mismatch else None,
                    "expected": {
                        "plan_id": plan_id,
                        "revision": approval.get("revision"),
                        "content_hash": document.get("content_hash"),
                        "resources_hash": (document.get("resources") or {}).get("hash"),
                        "decision": "approved",
                    },
                }
            )
        return out
    if isinstance(document, dict) and isinstance(document.get("tasks"), list) and isinstance(document.get("run_id"), str):
        if plan and plan != document.get("plan_id"):
            raise Failure(f"the run is of plan {document.get('plan_id')}, not {plan}")
        decided = [task for task in document["tasks"] if task.get("gate")]
        if not decided:
            raise Failure("the run carries no gate decisions")
        return [
            {
                "label": f"gate {task['task_id']} ({task['gate'].get('decision')}) by {task['gate'].get('decided_by')}",
                "decider": task["gate"].get("decided_by"),
                "signature": task["gate"].get("signature"),
                "mismatch": None,
                "expected": {
                    "plan_id": document.get("plan_id"),
                    "revision": document.get("revision"),
                    "content_hash": document.get("content_hash"),
                    "resources_hash": document.get("resources_hash"),
                    "decision": task["gate"].get("decision"),
                    "gate": {"run_id": document["run_id"], "task_id": task["task_id"], "input_hash": task["gate"].get("input_hash")},
                },
            }
            for task in decided
        ]
    raise Failure("the document is neither a hand-off (approvals) nor a run (tasks)")


def verify_document(document, keys_document, origin: str | None = None, plan: str | None = None):
    """Verify every decision; returns (all verified, the lines to print)."""
    keys = keys_document.get("keys") if isinstance(keys_document, dict) else None
    if not isinstance(keys, list):
        raise Failure('the keys document has no "keys" list (GET /api/keys)')
    ok, lines = True, []
    for decision in decisions_of(document, plan):
        try:
            if decision["mismatch"]:
                raise Failure(decision["mismatch"])
            result = verify_decision(decision["signature"], decision["expected"], decision["decider"], keys, origin)
            lines.append(f"ok    {decision['label']}: signed {result['at']} with {result['alg']} key {result['kid'][:16]}…")
        except Failure as failure:
            ok = False
            lines.append(f"FAIL  {decision['label']}: {failure}")
    return ok, lines


def _read_json(path: str, what: str):
    try:
        text = sys.stdin.read() if path == "-" else open(path, encoding="utf-8").read()
    except OSError as error:
        raise SystemExit(f"verify_approvals: cannot read {what} ({path}): {error.strerror}") from error
    try:
        return json.loads(text)
    except ValueError as error:
        raise Failure(f"{what} ({path}) is not JSON: {error}") from error


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Verify Plangate's passkey-signed approvals and gate decisions.")
    parser.add_argument("document", help="the hand-off (GET /api/plans/{id}/approved) or run (GET /api/runs/{id}) JSON, or - for stdin")
    parser.add_argument("keys", help="the published keys (GET /api/keys) JSON, or - for stdin")
    parser.add_argument("--origin", help="the exact origin the decisions must have been signed on (default: any https origin of the key's RP id)")
    parser.add_argument("--plan", help="the plan id the decisions must be for (default: the hand-off's plan_id)")
    args = parser.parse_args(argv)
    if args.document == "-" and args.keys == "-":
        parser.error("only one of the files can be standard input")
    try:
        ok, lines = verify_document(_read_json(args.document, "the hand-off"), _read_json(args.keys, "the keys"), args.origin, args.plan)
    except Failure as failure:
        sys.stderr.write(f"verify_approvals: {failure}\n")
        return 1
    print("\n".join(lines))
    print(f"All {len(lines)} decisions verify." if ok else "Some decisions do NOT verify: do not run this.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
