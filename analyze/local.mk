# analyze/ build fragment
