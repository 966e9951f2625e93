# analyze/: diff, write amplification, fsync and dirty-throttling views
