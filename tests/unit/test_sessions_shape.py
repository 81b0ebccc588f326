"""`Sessions` puts its parts together and keeps one door: none of its methods only passes a
call on to one of its parts (a front-end or a test calls the part, `sessions.queries.table`,
`sessions.lobby.join`), so there is one way to reach each use case."""

from __future__ import annotations

import ast
import inspect
import textwrap

from bot.sessions import facade, service


def _forwards(cls: type) -> list[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]
        if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr) or body[0].value is None:
            continue
        call = body[0].value
        if isinstance(call, ast.Await):
            call = call.value
        if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Attribute)
                and ast.unparse(call.func.value).startswith("self.")):
            found.append(f"{cls.__module__}.{cls.__name__}.{node.name}: {ast.unparse(call)}")
    return found


def test_no_method_of_the_sessions_only_forwards_a_call() -> None:
    assert _forwards(service.Sessions) == []
    assert _forwards(facade.Sessions) == []


def test_the_check_finds_a_forward() -> None:
    class Forwarding:
        queries: object

        async def table(self, game_id: int) -> object:
            """The table."""
            return await self.queries.table(game_id)  # type: ignore[attr-defined]

    assert _forwards(Forwarding) == [f"{__name__}.Forwarding.table: self.queries.table(game_id)"]


def test_the_sessions_have_few_public_methods() -> None:
    public = [name for name, value in inspect.getmembers(facade.Sessions)
              if not name.startswith("_") and inspect.isfunction(value)]
    assert sorted(public) == ["close", "failure", "handle"]
