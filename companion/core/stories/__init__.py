"""The story bank: STAR stories beside the one-pager, the pack's common questions mapped to
them, their use on the card, the topics expected per round and the debrief after it."""
