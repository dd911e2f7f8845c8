"""The guide's content packs: Markdown files with a front-matter block.

``loader`` parses and loads a pack, ``items`` holds its pieces, ``fields`` checks each
typed field, ``numbers`` fills a text's number slots, and ``plans`` gives the typed
views of the pack's numbers and rules that the rest of the app reads.
"""
