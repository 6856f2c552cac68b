"""Tests of verify_approvals.py against decisions signed by a software authenticator.

Run: python3 -m unittest discover -s clients/python -p 'test_verify_approvals.py'
(e2e/passkeys.ui.spec.ts runs it in `npm test`, then runs the verifier on a real hand-off.)
"""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import unittest
from datetime import datetime, timedelta, timezone

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify_approvals  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
RP_ID = "localhost"
ORIGIN = "http://localhost:3000"
HASH_A = "sha256:" + "a" * 64
HASH_B = "sha256:" + "b" * 64
HASH_R = "sha256:" + "c" * 64


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def now(delta_minutes: float = 0) -> str:
    return (datetime.now(timezone.utc) + timedelta(minutes=delta_minutes)).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class SoftAuthenticator:
    """Signs as a browser's authenticator would: authenticatorData || SHA-256(clientDataJSON)."""

    def __init__(self, username: str, alg: str = "ES256", kid: str = "kid-1"):
        self.username, self.alg, self.kid, self.counter = username, alg, kid, 0
        if alg == "ES256":
            self.private = ec.generate_private_key(ec.SECP256R1())
            numbers = self.private.public_key().public_numbers()
            self.jwk = {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}
        else:
            self.private = Ed25519PrivateKey.generate()
            raw = self.private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
            self.jwk = {"kty": "OKP", "crv": "Ed25519", "x": b64url(raw)}

    def published(self, revoked_at: str | None = None) -> dict:
        return {"kid": self.kid, "username": self.username, "label": "soft", "alg": self.alg, "jwk": self.jwk, "cose": "", "rp_id": RP_ID, "created_at": now(-60), "revoked_at": revoked_at}

    def sign(self, signed: dict, origin: str = ORIGIN, flags: int = 0x05) -> dict:
        self.counter += 1
        challenge = b64url(hashlib.sha256(verify_approvals.canonical_json(signed).encode("utf-8")).digest())
        authenticator_data = hashlib.sha256(RP_ID.encode()).digest() + bytes([flags]) + self.counter.to_bytes(4, "big")
        client_data = json.dumps({"type": "webauthn.get", "challenge": challenge, "origin": origin}).encode()
        data = authenticator_data + hashlib.sha256(client_data).digest()
        signature = self.private.sign(data, ec.ECDSA(hashes.SHA256())) if self.alg == "ES256" else self.private.sign(data)
        return {"kid": self.kid, "signed": signed, "webauthn": {"authenticatorData": b64url(authenticator_data), "clientDataJSON": b64url(client_data), "signature": b64url(signature)}}


def signed_approval(plan_id: str = "plan-a", content_hash: str = HASH_A, at: str | None = None) -> dict:
    return {"plan_id": plan_id, "revision": 2, "content_hash": content_hash, "resources_hash": HASH_R, "decision": "approved", "at": at or now()}


def hand_off(signature: dict | None, plan_id: str = "plan-a", content_hash: str = HASH_A) -> dict:
    approval = {"id": 7, "revision": 2, "content_hash": content_hash, "decision": "approved", "reviewer": "alice", "comment": "", "signature": signature}
    return {"plan_id": plan_id, "revision": 2, "content_hash": content_hash, "hash_version": 2, "resources": {"hash": HASH_R}, "approvals": [approval]}


class VerifyApprovalsTest(unittest.TestCase):
    def setUp(self):
        self.alice = SoftAuthenticator("alice")
        self.keys = {"keys": [self.alice.published()]}

    def verify(self, document, keys=None, **options):
        return verify_approvals.verify_document(document, keys or self.keys, **options)

    def test_accepts_a_signed_approval_with_es256_and_ed25519(self):
        ok, lines = self.verify(hand_off(self.alice.sign(signed_approval())))
        self.assertTrue(ok, lines)
        ed = SoftAuthenticator("alice", alg="EdDSA", kid="kid-ed")
        ok, lines = self.verify(hand_off(ed.sign(signed_approval())), {"keys": [ed.published()]})
        self.assertTrue(ok, lines)

    def test_refuses_a_changed_content_hash(self):
        document = hand_off(self.alice.sign(signed_approval()), content_hash=HASH_B)
        ok, lines = self.verify(document)
        self.assertFalse(ok)
        self.assertIn("content_hash", lines[0])

    def test_refuses_a_swapped_key(self):
        mallory = SoftAuthenticator("alice", kid="kid-1")
        ok, lines = self.verify(hand_off(self.alice.sign(signed_approval())), {"keys": [mallory.published()]})
        self.assertFalse(ok)
        self.assertIn("does not verify", lines[0])

    def test_refuses_a_signature_replayed_from_another_plan(self):
        other = self.alice.sign(signed_approval(plan_id="plan-b"))
        ok, lines = self.verify(hand_off(other, plan_id="plan-a"))
        self.assertFalse(ok)
        self.assertIn("plan_id", lines[0])

    def test_refuses_a_signed_object_edited_after_signing(self):
        signature = self.alice.sign(signed_approval(plan_id="plan-b"))
        forged = copy.deepcopy(signature)
        forged["signed"]["plan_id"] = "plan-a"
        ok, lines = self.verify(hand_off(forged))
        self.assertFalse(ok)
        self.assertIn("challenge", lines[0])

    def test_revocation_counts_only_for_decisions_after_it(self):
        signature = self.alice.sign(signed_approval(at=now(-10)))
        ok, _ = self.verify(hand_off(signature), {"keys": [self.alice.published(revoked_at=now(-5))]})
        self.assertTrue(ok)
        ok, lines = self.verify(hand_off(signature), {"keys": [self.alice.published(revoked_at=now(-15))]})
        self.assertFalse(ok)
        self.assertIn("revoked", lines[0])

    def test_refuses_without_user_verification_and_on_another_origin(self):
        ok, lines = self.verify(hand_off(self.alice.sign(signed_approval(), flags=0x01)))
        self.assertFalse(ok)
        self.assertIn("UV flag", lines[0])
        ok, lines = self.verify(hand_off(self.alice.sign(signed_approval(), origin="https://evil.example")))
        self.assertFalse(ok)
        self.assertIn("evil.example", lines[0])
        ok, lines = self.verify(hand_off(self.alice.sign(signed_approval())), origin="https://plangate.example")
        self.assertFalse(ok)

    def test_refuses_an_unsigned_approval_and_a_key_of_someone_else(self):
        ok, lines = self.verify(hand_off(None))
        self.assertFalse(ok)
        self.assertIn("not signed", lines[0])
        bob = SoftAuthenticator("bob", kid="kid-bob")
        ok, lines = self.verify(hand_off(bob.sign(signed_approval())), {"keys": [bob.published()]})
        self.assertFalse(ok)
        self.assertIn("belongs to bob", lines[0])

    def test_verifies_gate_decisions_of_a_run(self):
        gate = {"run_id": "run-1", "task_id": "publish", "input_hash": HASH_B}
        signed = {**signed_approval(), "decision": "approve", "gate": gate}
        task = {"task_id": "publish", "gate": {"decision": "approve", "decided_by": "alice", "input_hash": HASH_B, "signature": self.alice.sign(signed)}}
        run = {"run_id": "run-1", "plan_id": "plan-a", "revision": 2, "content_hash": HASH_A, "resources_hash": HASH_R, "tasks": [task, {"task_id": "other", "gate": None}]}
        ok, lines = self.verify(run)
        self.assertTrue(ok, lines)
        other_input = copy.deepcopy(run)
        other_input["tasks"][0]["gate"]["input_hash"] = HASH_A
        ok, lines = self.verify(other_input)
        self.assertFalse(ok)
        self.assertIn("gate", lines[0])

    def test_canonical_json_follows_rfc_8785(self):
        # Keys sort by UTF-16 code units: U+1F600 (a surrogate pair, D83D…) before U+FF61.
        self.assertEqual(verify_approvals.canonical_json({"b": [1, "é\n"], "a": None, "\uff61": True, "\U0001f600": False}), '{"a":null,"b":[1,"é\\n"],"\U0001f600":false,"\uff61":true}')

    def test_the_command_line_exits_non_zero_on_a_failure(self):
        with tempfile.TemporaryDirectory() as folder:
            keys = os.path.join(folder, "keys.json")
            with open(keys, "w", encoding="utf-8") as out:
                json.dump(self.keys, out)
            good = json.dumps(hand_off(self.alice.sign(signed_approval())))
            bad = json.dumps(hand_off(self.alice.sign(signed_approval()), content_hash=HASH_B))
            script = os.path.join(HERE, "verify_approvals.py")
            passed = subprocess.run([sys.executable, script, "-", keys], input=good, capture_output=True, text=True)
            self.assertEqual(passed.returncode, 0, passed.stdout + passed.stderr)
            failed = subprocess.run([sys.executable, script, "-", keys], input=bad, capture_output=True, text=True)
            self.assertEqual(failed.returncode, 1)
            self.assertIn("do NOT verify", failed.stdout)


if __name__ == "__main__":
    unittest.main()
