from quantum_codegen_eval.codeblocks import extract_code, fenced_blocks


def test_joins_python_blocks_and_skips_other_languages():
    text = "Plan:\n```bash\npip install x\n```\n```python\na = 1\n```\ntext\n```\nb = 2\n```\n"
    assert extract_code(text) == "a = 1\n\nb = 2\n"
    assert [lang for lang, _ in fenced_blocks(text)] == ["bash", "python", ""]


def test_unterminated_fence_takes_the_rest():
    assert extract_code("```python\nimport pennylane as qml\nqml.Hadamard(0)") == (
        "import pennylane as qml\nqml.Hadamard(0)")


def test_plain_text_only_when_allowed():
    assert extract_code("x = 1") is None
    assert extract_code("x = 1", plain_ok=True) == "x = 1"
    assert extract_code("```bash\nls\n```", plain_ok=True) is None


def test_tilde_fences_and_longer_backtick_fences():
    assert extract_code("~~~py\nx = 2\n~~~") == "x = 2\n"
    assert extract_code("````python\ns = '```'\n````") == "s = '```'\n"
