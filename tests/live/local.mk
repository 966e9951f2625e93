# tests/live/ build fragment
