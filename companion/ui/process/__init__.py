"""The running process: one app per data folder (``single_instance``), Ctrl+C as a quit
(``interrupt``), a data folder it cannot use (``folder_problem``) and a write the disk
refuses (``write_errors``). The first paint loads them all, so they stay small."""
