"""The gateway's policy file: read into the adopter's own options, every mistake one line naming where it is."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from askback.adoption.options import Above
from askback.core.markers import Option
from askback.gateway.policy import PolicyError, check_against, load_policy, read_policy

TOOLS = [{"name": "ship", "inputSchema": {"type": "object", "properties": {
    "country": {"type": "string"}, "city": {"type": "string", "maxLength": 10}, "quantity": {"type": "integer"}}}}]


def test_a_policy_becomes_the_adopters_options(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('[tools.ship]\nconfirm = "Ship to {city}?"\nsecret = ["country"]\n'
                    '[tools.ship.choices]\ncity = ["Paris", { value = "Lyon", title = "Lyon (FR)" }]\n')
    policy = load_policy(path)
    ship = policy["ship"]
    assert ship.confirm == "Ship to {city}?" and ship.secret == ("country",)
    assert ship.choices["city"].provider() == [Option("Paris"), Option("Lyon", "Lyon (FR)")]
    check_against(policy, TOOLS, str(path))  # fits the listed tools: no error


@pytest.mark.parametrize(("data", "said"), [
    ({"tool": {}}, "unknown key 'tool'"),
    ({"tools": {"ship": {"confirm": "Ship to {city"}}}, "tools.ship.confirm is not a valid template"),
    ({"tools": {"ship": {"confirm": 3}}}, "tools.ship.confirm must be a text"),
    ({"tools": {"ship": {"secret": "country"}}}, "tools.ship.secret must be a list of argument names"),
    ({"tools": {"ship": {"approve": True}}},
     "tools.ship: unknown key 'approve' (known: confirm, secret, choices, out_of_band, once, approve_with)"),
    ({"tools": {"ship": {"choices": {"city": []}}}}, "tools.ship.choices.city must be a non-empty list"),
    ({"tools": {"ship": {"choices": {"city": [{"label": "x"}]}}}}, "tools.ship.choices.city: an option is a value"),
])
def test_a_mistake_in_the_file_is_one_line_naming_it(data: dict[str, Any], said: str) -> None:
    with pytest.raises(PolicyError) as caught:
        read_policy(data, "p.toml")
    assert said in str(caught.value) and str(caught.value).startswith("p.toml: ")
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(("data", "said"), [
    ({"tools": {"fly": {"confirm": "Fly?"}}}, "the upstream lists no tool 'fly'"),
    ({"tools": {"ship": {"secret": ["token"]}}}, "ship has no argument 'token'"),
    ({"tools": {"ship": {"choices": {"city": ["Paris", "Saint-Rémy-de-Provence"]}}}},
     "the option 'Saint-Rémy-de-Provence' does not fit the argument's schema"),
])
def test_a_rule_that_can_never_apply_is_refused_at_start(data: dict[str, Any], said: str) -> None:
    with pytest.raises(PolicyError) as caught:
        check_against(read_policy(data, "p.toml"), TOOLS, "p.toml")
    assert said in str(caught.value)


def test_a_file_that_is_not_toml_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text("[tools.ship\n")
    with pytest.raises(PolicyError, match="is not valid TOML"):
        load_policy(path)
    with pytest.raises(PolicyError, match="cannot be read"):
        load_policy(tmp_path / "missing.toml")


# -- out-of-band approvals and single use ---------------------------------------------------------------------
def test_out_of_band_and_once_become_the_adopters_options() -> None:
    policy = read_policy({"tools": {
        "pay": {"confirm": "Pay {amount}?", "out_of_band": {"argument": "amount", "above": 1000}, "once": True},
        "wipe": {"confirm": "Wipe {disk}?", "out_of_band": True},
    }})
    assert policy["pay"].out_of_band == Above("amount", 1000) and policy["pay"].once
    assert policy["pay"].approved_on_page({"amount": 1000.5}) and not policy["pay"].approved_on_page({"amount": 1000})
    assert policy["wipe"].approved_on_page({}) and policy["wipe"].needs_pages and not policy["wipe"].once
    assert policy["pay"].approve_with is None  # the app's approve_with


def test_approve_with_becomes_the_adopters_option() -> None:
    policy = read_policy({"tools": {"wipe": {"confirm": "Wipe {disk}?", "out_of_band": True,
                                             "approve_with": "passkey"}}})
    assert policy["wipe"].approve_with == "passkey"


@pytest.mark.parametrize(("table", "said"), [
    ({"out_of_band": True}, "tools.pay.out_of_band needs a confirm text"),
    ({"confirm": "Pay?", "out_of_band": "yes"}, "tools.pay.out_of_band must be true, false or"),
    ({"confirm": "Pay?", "out_of_band": {"argument": "amount"}}, "tools.pay.out_of_band must be true, false or"),
    ({"confirm": "Pay?", "out_of_band": {"argument": "amount", "above": "1k"}}, "must be true, false or"),
    ({"once": "yes"}, "tools.pay.once must be true or false"),
    ({"confirm": "Pay?", "out_of_band": True, "approve_with": "sms"},
     "tools.pay.approve_with must be one of 'page', 'passkey'"),
    ({"confirm": "Pay?", "approve_with": "passkey"}, "tools.pay.approve_with needs out_of_band"),
])
def test_a_bad_out_of_band_or_once_is_one_line(table: dict[str, Any], said: str) -> None:
    with pytest.raises(PolicyError, match=re.escape(said)):
        read_policy({"tools": {"pay": table}}, "p.toml")


@pytest.mark.parametrize(("argument", "said"), [
    ("total", "pay has no argument 'total'"),
    ("to", "'to' is not a number in pay's schema"),
])
def test_a_threshold_names_a_numeric_argument_of_the_tool(argument: str, said: str) -> None:
    policy = read_policy({"tools": {"pay": {"confirm": "Pay?", "out_of_band": {"argument": argument, "above": 5}}}})
    tools = [{"name": "pay", "inputSchema": {"type": "object", "properties": {
        "amount": {"type": "number"}, "to": {"type": "string"}}}}]
    with pytest.raises(PolicyError, match=re.escape(said)):
        check_against(policy, tools, "p.toml")
