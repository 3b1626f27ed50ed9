"""i18n: everything that depends on the report language.

Concern: numbers, money and dates as text per language (``formatting``, Babel's CLDR data plus the
house rules), short labels and status words from gettext catalogues (``labels``, ``locale/``), and the
CJK font (``fonts``).
May import: core.
Public: ``formatting.minutes`` and friends, ``labels.label``, ``fonts.register_matplotlib_cjk``.
"""
