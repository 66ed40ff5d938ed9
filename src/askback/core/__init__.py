"""The sans-I/O core: specs from signatures, forms, the decision engine and the sealed state.

Nothing here touches a socket, awaits a network or knows a framework type; adapters do that.
"""
