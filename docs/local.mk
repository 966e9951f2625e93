# docs/ build fragment
