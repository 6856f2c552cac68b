"""The client's own checks, offline: canonical JSON by RFC 8785, the hand-off recipe and its
refusals, and both HMAC signatures against docs/security.md's worked example.

    python3 -m unittest discover -s clients/python
"""

import copy
import sys
import unittest

sys.dont_write_bytecode = True

from plangate import HandOffError, canonical_json, check_task_signature, content_hash, result_signature, sha256_of, verify_hand_off  # noqa: E402


def hand_off():
    document = {
        "plan": {"task_id": "job", "planned_tasks": [{"task_id": "a", "description": "Fetch", "execution_type": "tool", "tool_id": "fetch"}]},
        "job": {"goal": "x"},
        "subgraphs": [],
    }
    resources = {"targets": {"a": "tool:fetch"}, "definitions": {"tool:fetch": {"id": "fetch"}}}
    resources["hash"] = sha256_of({"targets": resources["targets"], "definitions": resources["definitions"]})
    digest = content_hash(document)
    approval = {"decision": "approved", "reviewer": "approver", "content_hash": digest, "resources_hash": resources["hash"]}
    return {"revision": 1, "content_hash": digest, "hash_version": 2, "document": document, "resources": resources, "approvals": [approval]}


class CanonicalJson(unittest.TestCase):
    def test_numbers_are_written_as_ecmascript_writes_them(self):
        cases = {
            0.0: "0",
            -0.0: "0",
            1.0: "1",
            1e21: "1e+21",
            1e20: "100000000000000000000",
            1e-7: "1e-7",
            0.000001: "0.000001",
            123456789012345680000.0: "123456789012345680000",
            5e-324: "5e-324",
            1.7976931348623157e308: "1.7976931348623157e+308",
            333333333.3333333: "333333333.3333333",
            -1.5e-9: "-1.5e-9",
            4.5: "4.5",
            2**53: "9007199254740992",
        }
        for value, text in cases.items():
            self.assertEqual(canonical_json(value), text, value)

    def test_keys_sort_by_utf16_code_units(self):
        # RFC 8785 section 3.2.3's example: the emoji (a surrogate pair) sorts before U+FB33.
        value = {"\u20ac": 1, "\r": 2, "\ufb33": 3, "1": 4, "\U0001f600": 5, "\u0080": 6, "\u00f6": 7}
        self.assertEqual(canonical_json(value), '{"\\r":2,"1":4,"\u0080":6,"\u00f6":7,"\u20ac":1,"\U0001f600":5,"\ufb33":3}')

    def test_no_whitespace_and_literals(self):
        self.assertEqual(canonical_json({"b": [True, False, None], "a": "x"}), '{"a":"x","b":[true,false,null]}')

    def test_refuses_what_json_cannot_say(self):
        with self.assertRaises(ValueError):
            canonical_json(float("nan"))
        with self.assertRaises(TypeError):
            canonical_json({"when": object()})


class HandOff(unittest.TestCase):
    def test_a_consistent_hand_off_verifies(self):
        self.assertIs(verify_hand_off(hand_off())["revision"], 1)

    def test_a_changed_task_is_refused(self):
        changed = hand_off()
        changed["document"]["plan"]["planned_tasks"][0]["tool_id"] = "delete_everything"
        with self.assertRaisesRegex(HandOffError, "hashes to"):
            verify_hand_off(changed)

    def test_changed_resources_are_refused(self):
        changed = hand_off()
        changed["resources"]["definitions"]["tool:fetch"]["url"] = "http://169.254.169.254/"
        with self.assertRaisesRegex(HandOffError, "resources hash"):
            verify_hand_off(changed)

    def test_an_approval_of_other_content_or_no_approval_is_refused(self):
        other = hand_off()
        other["approvals"][0]["content_hash"] = "sha256:" + "0" * 64
        with self.assertRaisesRegex(HandOffError, "names other hashes"):
            verify_hand_off(other)
        rejected = hand_off()
        rejected["approvals"][0]["decision"] = "rejected"
        with self.assertRaisesRegex(HandOffError, "as an approval"):
            verify_hand_off(rejected)
        none = copy.deepcopy(hand_off())
        none["approvals"] = []
        with self.assertRaisesRegex(HandOffError, "no approval"):
            verify_hand_off(none)


class SignedHandOff(unittest.TestCase):
    def test_a_signature_that_does_not_verify_refuses_the_hand_off(self):
        signed = hand_off()
        signed["plan_id"] = "p1"
        signed["approvals"][0]["id"] = 1
        signed["approvals"][0]["revision"] = 1
        signed["approvals"][0]["signature"] = {"kid": "nope", "signed": {}, "webauthn": {"authenticatorData": "", "clientDataJSON": "", "signature": ""}}
        with self.assertRaisesRegex(HandOffError, "signatures do not verify"):
            verify_hand_off(signed, {"keys": []})


class Signatures(unittest.TestCase):
    def test_a_result_is_signed_as_docs_security_md_works_it_out(self):
        signature = result_signature("whsec-test", "/api/runs/r1/tasks/t1/result", "1.1", "1700000000", '{"state":"succeeded","output":42}')
        self.assertEqual(signature, "sha256=037830e1c8a9eb5b2febef537c5aa3877d6e314885c85cc214042e4f63481925")

    def test_a_task_is_accepted_only_signed_fresh_and_unchanged(self):
        body = '{"run_id":"r1"}'
        from plangate import _signature  # noqa: PLC0415 - the signer itself, to make a valid header

        good = _signature("s3cret", f"1700000000.{body}")
        self.assertTrue(check_task_signature("s3cret", "1700000000", good, body, now=1700000100))
        self.assertFalse(check_task_signature("s3cret", "1700000000", good, body + " ", now=1700000100))
        self.assertFalse(check_task_signature("other", "1700000000", good, body, now=1700000100))
        self.assertFalse(check_task_signature("s3cret", "1700000000", good, body, now=1700000000 + 301))
        self.assertFalse(check_task_signature("s3cret", None, good, body, now=1700000000))


if __name__ == "__main__":
    unittest.main()
