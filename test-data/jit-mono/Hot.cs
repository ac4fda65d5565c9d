// SPDX-License-Identifier: MIT
// The workload of the jit-mono recording: for SECS seconds (args[0]), sort a
// shuffled int[] with System.Array.Sort and scan a text with a
// System.Text.RegularExpressions.Regex. The hot code is the class library's.
using System;
using System.Text;
using System.Text.RegularExpressions;

public static class Hot {
	public static void Main(string[] args) {
		double secs = args.Length > 0 ? double.Parse(args[0]) : 2;
		DateTime end = DateTime.UtcNow.AddSeconds(secs);
		var rnd = new Random(42);
		int[] baseArr = new int[20000];
		for (int i = 0; i < baseArr.Length; i++) baseArr[i] = rnd.Next();
		var sb = new StringBuilder();
		for (int i = 0; i < 2000; i++) sb.Append("user").Append(rnd.Next(1000)).Append("@host").Append(i % 7).Append(".example.com, ");
		string text = sb.ToString();
		var re = new Regex(@"([a-z]+)(\d+)@([a-z]+\d)\.example\.com");
		long sum = 0, rounds = 0, matches = 0;
		while (DateTime.UtcNow < end) {
			int[] a = (int[])baseArr.Clone();
			Array.Sort(a);
			sum += a[(int)(rounds % a.Length)];
			for (Match m = re.Match(text); m.Success; m = m.NextMatch()) { matches++; sum += m.Groups[2].Length; }
			rounds++;
		}
		Console.WriteLine("rounds " + rounds + " matches " + matches + " sum " + sum);
	}
}
