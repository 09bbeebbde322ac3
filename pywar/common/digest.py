"""A game's digest: 64-bit FNV-1a folded over 32-bit event codes (docs/rules.md,
"The digest"). C: csrc/common/digest.h."""

OFFSET = 0xCBF29CE484222325
PRIME = 0x100000001B3

DEAL = 0x1000
FACE_UP = 0x2000
FACE_DOWN = 0x3000
BATTLE = 0x4000
REFILL = 0x5000
TAKE_BACK = 0x6000
END = 0x7000
TIE = 2
PLAYER_SHIFT = 8        # kind | player << 8 | card or count
OUTCOME_SHIFT = 4       # END | outcome << 4 | winner + 1


def fold(digest, code):
    """Fold one event code into the digest. C: Digest_Fold."""
    return ((digest ^ code) * PRIME) % 2 ** 64


def fold_card(digest, kind, player, card):
    """Fold an event about a player's card: kind | player << 8 | card id.
    C: Digest_FoldCard."""
    return fold(digest, kind | player << PLAYER_SHIFT | card)
