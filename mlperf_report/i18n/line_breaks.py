"""Where a line may not break in text we wrap ourselves (the cards, the deck's fitting, a debut's
cells): never before closing punctuation ("，" "。" "：" "）" …) nor after opening punctuation ("（"
"「" …), as Chinese typesetting has it (Unicode's line breaking classes CL, CP, IS, EX and OP in
short). WeasyPrint and LibreOffice apply the same rule to the text they set themselves."""

from __future__ import annotations

#: Characters a line may not start with.
NO_LINE_START = frozenset("，。、：；！？）」』】〕〉》・…,.:;!?)]}%")
#: Characters a line may not end with.
NO_LINE_END = frozenset("（「『【〔〈《([{")
