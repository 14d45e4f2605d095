"""`baloot report`: the JSON reports of several engines on one static HTML page.

`runs.py` reads and checks the reports, `badge.py` draws each engine's SVG
badge, `page.py` writes the page (a matrix of cases by engines, grouped by
clause family), `command.py` is the command.
"""
