"""The story bank's Qt parts: the Stories tab of About me, the card's fold, the debrief."""
