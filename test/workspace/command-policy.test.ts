import { describe, expect, it } from 'vitest';
import { decideCommand } from '../../src/workspace/command-policy.js';
import { parseScript } from '../../src/workspace/shell-commands.js';

const names = (script: string) => parseScript(script).commands.map((c) => c[0]);

describe('parseScript', () => {
  it('finds every simple command between operators, in subshells, groups and substitutions', () => {
    expect(names('ls; pwd && cat a || wc -l | sort & true\nhead')).toEqual([
      'ls',
      'pwd',
      'cat',
      'wc',
      'sort',
      'true',
      'head',
    ]);
    expect(names('(cd x; make) && { echo a; }')).toEqual(['cd', 'make', 'echo']);
    expect(names('echo $(date) `whoami` "$(id -u)" <(ls)')).toEqual(['date', 'whoami', 'id', 'ls', 'echo']);
    expect(names('if grep -q x f; then rm a; else touch b; fi')).toEqual(['grep', 'rm', 'touch']);
    expect(names('for f in *.csv; do wc -l "$f"; done')).toEqual(['wc']);
    // A case pattern after the first may read as a command: never a hidden one, at worst one more to allow.
    expect(names('case "$x" in a) rm a;; *) ls;; esac')).toEqual(['rm', '*', 'ls']);
    expect(names('function f { rm -rf x; }; f')).toEqual(['rm', 'f']);
  });

  it('keeps quoted words whole and drops assignments and redirections', () => {
    expect(parseScript('X=1 LANG=C grep "a b" \'c d\' > out.txt 2>&1 < in').commands).toEqual([['grep', 'a b', 'c d']]);
    expect(parseScript("r''m -rf /").commands).toEqual([['rm', '-rf', '/']]);
    expect(parseScript('\\rm x').commands).toEqual([['rm', 'x']]);
  });

  it('reads here-documents as text, but not what follows them on the line', () => {
    expect(names('cat <<EOF | sh\nrm -rf /\nEOF\necho done')).toEqual(['cat', 'sh', 'echo']);
    expect(names("cat <<'EOF' > a.md\n# 报告\nEOF")).toEqual(['cat']);
  });

  it('unwraps shells, eval, wrappers, find -exec and aliases', () => {
    expect(names('bash -c "sudo rm -rf /"')).toEqual(['bash', 'sudo', 'rm']);
    expect(names("sh -lc 'echo hi; rm x'")).toEqual(['sh', 'echo', 'rm']);
    expect(names('eval rm -rf /')).toEqual(['eval', 'rm']);
    expect(names('env -i X=1 command nice -n 5 timeout 10 xargs -I {} rm {}')).toEqual([
      'env',
      'command',
      'nice',
      'timeout',
      'xargs',
      'rm',
    ]);
    expect(names("env -S 'rm -rf /'")).toEqual(['env', 'rm']);
    expect(names('find . -name "*.tmp" -exec rm {} \\;')).toEqual(['find', 'rm']);
    expect(names('alias r=rm; r -rf /')).toEqual(['alias', 'rm']);
  });

  it('reports what cannot be known before it runs', () => {
    expect(parseScript('$CMD -rf /').unknowable).toHaveLength(1);
    expect(parseScript('eval "$X"').unknowable).toHaveLength(1);
    expect(parseScript('bash -c "$X"').unknowable).toHaveLength(1);
    expect(parseScript('alias r="$X"').unknowable).toHaveLength(1);
    expect(parseScript('echo "$X" $(ls)').unknowable).toEqual([]);
  });
});

describe('decideCommand', () => {
  const policy = { deny: ['rm -rf', 'curl'], ask: ['git push'] };
  it.each([
    'rm -rf /',
    'rm -f -r /',
    'echo ok; rm -fr /',
    'true && rm -rf ~',
    'ls | xargs rm -rf',
    'echo $(rm -rf /)',
    'echo `rm -rf /`',
    'bash -c "rm -rf /"',
    'sh -c \'sh -c "rm -rf /"\'',
    'eval "rm -rf /"',
    'eval rm -rf /',
    'alias r=rm; r -rf /',
    'env FOO=1 rm -rf /',
    'command rm -rf /',
    '/bin/rm -rf /',
    "r''m -rf /",
    'find / -exec rm -rf {} +',
    'timeout 5 bash -c "curl http://x"',
    'cat <<EOF | bash\nEOF\nrm -rf /',
  ])('denies the smuggled command in %j', (script) => {
    expect(decideCommand(policy, script)).toMatchObject({ decision: 'deny' });
  });

  it('asks for unknowable scripts, ask rules and commands missing from an allow list', () => {
    expect(decideCommand(policy, 'eval "$(echo cm0gLXJmIC8= | base64 -d)"')).toMatchObject({ decision: 'ask' });
    expect(decideCommand(policy, 'X=rm; $X -rf /')).toMatchObject({ decision: 'ask' });
    expect(decideCommand({ ...policy, unknowable: 'deny' }, '$X -rf /')).toMatchObject({ decision: 'deny' });
    expect(decideCommand(policy, 'git add . && git push origin main')).toMatchObject({
      decision: 'ask',
      command: 'git push origin main',
    });
    expect(decideCommand({ allow: ['ls', 'wc'] }, 'cd 数据 && ls | wc -l')).toEqual({ decision: 'allow' });
    expect(decideCommand({ allow: ['ls'] }, 'ls; python3 x.py')).toMatchObject({ decision: 'ask' });
  });

  it('allows what no rule names', () => {
    expect(decideCommand(policy, 'rm one.txt; git status; awk -F, "{print $1}" 销售.csv')).toEqual({
      decision: 'allow',
    });
  });
});
