"""MLPerf report generator: from official MLPerf results to charts, narrative, HTML/PDF and email."""

__version__ = "0.1.0"
