# tests/ build fragment
