"""Slash command localisation from the catalogue.

Command and option names and descriptions are looked up by where they are
(`discord.command.<command>.name`, `discord.option.<option>.description`);
a choice names its key in the `locale_str` extras. English is the default
text Discord shows for every locale we do not translate.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from ...i18n import catalogue

LOCALES = {discord.Locale.italian: "it", discord.Locale.spain_spanish: "es",
           discord.Locale.latin_american_spanish: "es"}


def catalogue_key(string: app_commands.locale_str,
                  context: app_commands.TranslationContextTypes) -> str | None:
    key = string.extras.get("key")
    if isinstance(key, str):
        return key
    data = context.data
    if context.location is Where.command_name and isinstance(data, app_commands.Command):
        return f"discord.command.{data.name}.name"
    if context.location is Where.command_description and isinstance(data, app_commands.Command):
        return f"discord.command.{data.name}.description"
    if context.location is Where.parameter_name and isinstance(data, app_commands.Parameter):
        return f"discord.option.{data.name}.name"
    if context.location is Where.parameter_description and isinstance(data, app_commands.Parameter):
        return f"discord.option.{data.name}.description"
    return None


class CatalogueTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = LOCALES.get(locale)
        key = catalogue_key(string, context)
        if lang is None or key is None:
            return None
        text = catalogue(lang).get(key)
        return text if isinstance(text, str) else None


def english(key: str) -> str:
    """The default (English) text of a command, option or choice."""
    text = catalogue("en")[key]
    assert isinstance(text, str), key
    return text
