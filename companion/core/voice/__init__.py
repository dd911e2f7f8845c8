"""Voice analysis without Qt: levels, a voice-activity detector, whole-take figures.

Everything here works on 16-bit signed PCM, mono, held in ``array('h')``; nothing is
recorded or written. The Qt side (companion/ui/voice) feeds it the microphone's frames.
"""
