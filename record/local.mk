# record/ build fragment
