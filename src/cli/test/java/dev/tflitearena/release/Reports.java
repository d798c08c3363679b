package dev.tflitearena.release;

import java.util.List;

/** Hand-made release reports for tests. */
final class Reports {
    private Reports() {
    }

    static ReleaseReport of(String library, ModelReport... models) {
        return new ReleaseReport(ReleaseReport.FORMAT, ReleaseReport.VERSION, library,
                library.substring(0, library.lastIndexOf('.')), "BuiltinOpResolverWithoutDefaultDelegates",
                new ReleaseReport.Machine("amd64", 2, "17"), List.of(models));
    }

    static ModelReport model(String name, long arenaBytes, long persistentBytes) {
        return model(name, arenaBytes, persistentBytes, true);
    }

    static ModelReport model(String name, long arenaBytes, long persistentBytes, boolean identical) {
        return new ModelReport(name, null, List.of(new ModelReport.CrossCheckResult("builtin", identical,
                identical ? 0 : 3)), 271, 186, arenaBytes, persistentBytes, arenaBytes + 128, persistentBytes + 128);
    }
}
