"""The name guard on phrasings its tables learned from blind4 and blind5, said in other words than the corpora's.

Each case is a sibling of a corpus miss (another person, word order or device), so a table line that only held one
corpus text fails here.
"""

from __future__ import annotations

import pytest

from askback.guard import field_credential


def refused(description: str) -> str | None:
    return field_credential("f", {"type": "string", "description": description})


@pytest.mark.parametrize("text", [
    "Ihre Antwort auf Ihre Sicherheitsfrage",
    "Risposta alla tua domanda di sicurezza",
    "Jawapan soalan keselamatan anda",
    "Svaret på säkerhetsfrågan",
    "Vier cijfers op de achterkant van de kaart",
    "Cztery cyfry na odwrocie karty",
    "Tři číslice na zadní straně karty, prosím.",
    "Saisissez votre code PIN (3 tentatives restantes)",
    "The digits you enter to unlock the tablet.",
    "Ce que tu tapes pour déverrouiller ton écran.",
    "Lo que tecleas para desbloquear el móvil.",
    "Numer, który wprowadzasz, aby odblokować telefon.",
])
def test_asks_for_a_credential(text: str) -> None:
    assert refused(text) is not None


@pytest.mark.parametrize("text", [
    "Lebensdauer des Zugriffstokens in Minuten",
    "Durata del token di sessione, in minuti",
    "Le secret du bonheur, selon vous ?",
    "El secreto de la felicidad en una frase",
    "Sekret szczęścia według waszego zespołu",
    "Le symbole du jeton à acheter",
    "Тикер токена для обмена",
    "Bloquear la tarjeta tras tres intentos de PIN fallidos",
    "Vi ber aldrig om ditt lösenord eller dina koder i ett formulär. Fyll i din adress.",
])
def test_an_ordinary_text(text: str) -> None:
    assert refused(text) is None
