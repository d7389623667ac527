"""What the tests and the benches both read, so that neither imports the other: the recorded
fixtures (`fixtures`), the incumbents' unit-test cases (`peer_cases`), the gpt-oss and Mistral
outputs rendered at run time by the vendors' own packages (`harmony`, `mistral`, cut into tokens
by `pieces`), and the incumbents themselves, imported as the peers README says (`engines`). Not
part of the distribution."""
