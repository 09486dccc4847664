"""Which tests are slow: `python -m pytest -m "not slow"` is the quick subset (31-33 s on 2 cores at
load 2, on two workers).

Slow means over ~0.3 s each on 2 cores, measured with `--durations=0` over the whole suite
(11.5 minutes on 2 busy cores, almost all of it waiting: server processes, real CLIs, retry
back-offs, deadlines, request spacing). Listed here rather than decorated one by one, so the subset is
decided in one place; `tests/conftest.py` marks them, and `tests/test_release.py` checks that
every name here still names a test.
"""

from __future__ import annotations

SLOW_MODULES = frozenset(
    {
        "test_cache_multiprocess",
        "test_claude_code",
        "test_deadlines",
        "test_faults",
        "test_fuzz",
        "test_hostile",
        "test_hostile_stdio",
        "test_hostile_two_servers",
        "test_http_isolation",
        "test_http_hardening",
        "test_http_load",
        "test_library_lies",
        "test_stdin_close",
        "test_http_transport",
        "test_inspector",
        "test_latex_hostile",
        "test_mirror_processes",
        "test_notifications",
        "test_offline",
        "test_one_connection",
        "test_processes_share_spacing",
        "test_selectors_stdio",
        "test_stopped_holders",
        "test_stdio",
        "test_terminal",
        "test_tools_size",
    }
)
"""Modules whose tests are nearly all slow: processes, sockets, retries and deadlines."""

SLOW_TESTS: dict[str, frozenset[str]] = {
    # Measured in the quick subset with --durations (issue 35: over 1.4 s each at load 8.6 on 2 cores).
    "test_locks": frozenset({"test_every_module_imports_and_the_locks_work_without_fcntl"}),
    "test_library_index": frozenset(
        {
            "test_a_writer_killed_mid_save_loses_nothing",
            "test_evictions_and_replacements_leave_scores_as_if_built_afresh",
            "test_several_processes_share_the_file",
        }
    ),
    "test_pdf_damaged": frozenset(
        {
            "test_a_bit_flipped_file_reads_in_both_engines_every_page_pdfium_reads",
            "test_a_cut_file_gives_every_page_whose_contents_precede_the_cut",
            "test_a_form_garbled_near_its_end_is_read_on_a_page_with_a_caption_of_its_own",
            "test_a_key_a_damaged_byte_hides_from_pypdf_is_read_from_the_objects_bytes",
            "test_an_object_stream_bomb_in_a_cut_file_is_inflated_only_as_far_as_the_budget",
            "test_garbled_content_loses_only_the_tokens_pypdf_cannot_read",
            "test_the_default_install_reads_damaged_files_without_pypdfium2",
        }
    ),
    "test_pdf_fontcache": frozenset({"test_shared_fonts_read_every_page_as_fonts_built_per_page"}),
    "test_rereads": frozenset({"test_a_newer_extractor_in_another_process_makes_the_page_read_again"}),
    "test_list_new": frozenset(
        {
            "test_the_days_papers_with_their_announce_types_and_one_request",
            "test_feed_requests_keep_arxivs_spacing",
            "test_two_stdio_servers_on_one_home_fetch_the_feed_once",
        }
    ),
    "test_messages": frozenset({"test_a_megabyte_argument_is_never_echoed_whole"}),
    "test_surrogates": frozenset({"test_every_call_with_a_lone_surrogate_gets_one_line_over_stdio"}),
    "test_tool_schemas": frozenset(
        {"test_start_up_imports_nothing_only_a_tool_call_needs", "test_tools_list_is_the_derived_tools"}
    ),
    "test_upstream_lies": frozenset(
        {
            "test_a_feed_holding_20000_entries_for_10_asked_gives_10_and_says_so",
            "test_an_entry_with_a_5_mb_title_and_20000_authors_is_cut_and_says_so",
            "test_semantic_scholar_answering_5000_items_for_limit_10_passes_10",
        }
    ),
    "test_mirror": frozenset(
        {
            "test_interactive_calls_go_before_the_next_page",
            "test_a_503_with_retry_after_is_waited_out_and_the_harvest_completes",
            "test_the_mirror_finds_what_the_api_finds",
        }
    ),
    "test_archive": frozenset(
        {
            "test_decompression_is_incremental",
            "test_gzip_bomb_against_the_default_bound",
            "test_gzip_bomb_is_refused_without_allocating_it",
            "test_gzipped_tar_larger_than_bound_is_refused_while_streaming",
            "test_tar_with_too_many_members_is_refused",
        }
    ),
    "test_bibtex": frozenset(
        {
            "test_any_title_parses",
        }
    ),
    "test_cache": frozenset(
        {
            "test_threads_share_one_cache",
        }
    ),
    "test_categories": frozenset(
        {
            "test_suggest_only_returns_real_distinct_ids",
        }
    ),
    "test_client_contract": frozenset(
        {
            "test_a_null_argument_means_not_given",
            "test_annotations_tell_the_truth",
            "test_argument_mistakes_get_one_actionable_line",
            "test_error_results_have_no_structured_content_and_say_the_wait",
            "test_every_bound_has_one_wording",
            "test_schemas_are_portable_described_and_show_each_bound",
            "test_text_is_written_for_a_model",
            "test_the_published_schema_is_the_compacted_one",
        }
    ),
    "test_disk": frozenset(
        {
            "test_a_damaged_raw_file_is_never_returned_as_good",
            "test_a_file_size_limit_is_a_clear_error_and_read_text_still_comes_back",
            "test_a_file_where_the_home_folder_belongs_stops_start_up_in_one_line",
            "test_a_pdf_the_disk_refuses_is_still_read_once",
            "test_a_read_only_home_stops_start_up_in_one_line",
            "test_damaged_text_is_never_returned_as_good",
            "test_raw_pages_go_before_text_under_the_disk_limit",
            "test_two_big_searches_do_not_evict_a_paper_read_a_minute_ago",
        }
    ),
    "test_fake_arxiv": frozenset(
        {
            "test_make_corpus_is_varied_and_deterministic",
            "test_paging_covers_every_match_once",
            "test_standalone_main_serves_and_stops_on_sigterm",
        }
    ),
    "test_fulltext": frozenset(
        {
            "test_find_in_paper_points_at_the_page",
            "test_html_paper_costs_one_request",
            "test_old_paper_prefers_ar5iv_and_remembers_misses_across_versions",
            "test_outline_and_sections",
            "test_paging_covers_the_text_exactly",
            "test_pdf_only_submission_reads_the_eprint_as_pdf",
            "test_read_after_get_paper_costs_one_more_request",
            "test_second_version_skips_html_known_missing_before_html_era",
            "test_stub_html_falls_through_to_source",
            "test_untrusted_notice_and_download_source",
            "test_versions_never_mix",
        }
    ),
    "test_html_authors": frozenset(
        {
            "test_a_collaboration_names_every_author_once_and_each_affiliation_once",
            "test_arbitrary_author_markup_keeps_the_text_shape",
        }
    ),
    "test_html_text": frozenset(
        {
            "test_arbitrary_markup_raises_only_extraction_error",
            "test_deep_nesting_memory_is_bounded",
            "test_hundred_thousand_nested_elements_do_not_recurse_or_stall",
            "test_large_page_is_fast",
        }
    ),
    "test_ids_as_pasted": frozenset(
        {
            "test_a_missing_version_of_an_old_style_id_is_not_found",
            "test_a_versioned_old_style_id_gets_that_versions_metadata",
            "test_an_old_style_id_with_a_subject_class_names_the_archive_id",
            "test_ids_as_pasted_are_found",
            "test_ids_that_cannot_exist_are_refused_without_a_request",
        }
    ),
    "test_latex_text": frozenset(
        {
            "test_five_megabyte_paper_is_linear",
            "test_pathological_input_finishes_quickly",
            "test_random_latex_never_crashes_and_keeps_the_contract",
            "test_tar_gz_paper_title_abstract_and_headings",
            "test_ten_thousand_macro_uses_stay_fast",
            "test_unclosed_arguments_of_macros_with_arguments_stay_linear",
        }
    ),
    "test_local_search": frozenset(
        {
            "test_search_over_1000_large_docs_is_fast",
        }
    ),
    "test_manifests": frozenset(
        {
            "test_environment_variables_are_exactly_the_settings_the_code_reads",
        }
    ),
    "test_pdf_text": frozenset(
        {
            "test_a_truncated_pdf_gives_the_pages_it_still_holds",
            "test_both_engines_agree_on_page_count_and_opening_words",
            "test_one_heavy_page_alone_goes_to_pypdf",
            "test_revtex_paper_gives_every_page_in_order",
            "test_text_operators_weigh_more_than_paths",
            "test_word_submission_with_broken_xref_reads_and_keeps_stdout_clean",
        }
    ),
    "test_rate_limiter": frozenset(
        {
            "test_real_clock_short_interval",
        }
    ),
    "test_records": frozenset(
        {
            "test_a_session_says_when_it_expires",
            "test_clear_cache_says_how_much_it_freed",
        }
    ),
    # 260 references resolved in one process: 15-50 s of CPU in research/likeness (difflib), no PDF.
    "test_resolve_references": frozenset({"test_generated_references_meet_the_acceptance_figures"}),
    "test_resources": frozenset(
        {
            "test_completions",
            "test_prompt",
            "test_resources_list_templates_and_read",
            "test_search_cached_is_fast_at_1000_papers",
        }
    ),
    "test_schemas": frozenset(
        {
            "test_every_tool_has_schema_annotations_title_and_valid_output",
        }
    ),
    "test_search_idioms": frozenset(
        {
            "test_a_journal_doi_is_resolved_to_its_arxiv_paper",
            "test_a_journal_doi_with_no_arxiv_version_says_so",
            "test_a_not_with_nothing_before_it_is_a_clear_error_without_a_request",
            "test_a_query_that_is_an_arxiv_id_is_looked_up",
            "test_abstract_max_chars_is_a_hard_limit",
            "test_acm_and_msc_classes_are_kept_apart_and_paragraphs_kept",
            "test_an_archive_is_a_category_value",
            "test_export_bibtex_counts_its_entries_and_uses_the_latest_metadata",
            "test_id_list_with_duplicates_returns_each_paper_once",
            "test_not_and_lower_case_operators_and_adjacency_mean_what_they_say",
            "test_one_deeply_nested_citation_is_skipped_with_a_note",
            "test_one_odd_entry_is_skipped_with_a_note",
            "test_page_two_of_a_relaxed_search_pages_the_same_relaxed_query",
        }
    ),
    "test_secrets": frozenset(
        {
            "test_a_server_given_an_odd_key_stops_with_one_line_that_does_not_show_it",
            "test_no_result_shows_the_key_or_the_home_path",
        }
    ),
    "test_textview": frozenset(
        {
            "test_pages_concatenate_to_the_text_exactly",
            "test_random_texts_concatenate_exactly",
        }
    ),
    "test_tool_groups": frozenset(
        {
            "test_groups_expose_their_tools_and_texts_name_only_those",
            "test_http_prints_the_url_it_serves_on_one_stderr_line",
            "test_the_tools_option_wins_over_the_environment",
        }
    ),
    "test_tools_metadata": frozenset(
        {
            "test_arxiv_error_feed_is_a_tool_error",
            "test_author_category_and_dates",
            "test_exhausted_retries_name_the_status",
            "test_get_paper_accepts_every_form",
            "test_id_list_keeps_order_and_reports_missing",
            "test_invalid_arguments",
            "test_malformed_id_is_a_tool_error",
            "test_metadata_is_fetched_once",
            "test_old_style_ids",
            "test_plain_query_with_stopwords_still_finds_papers",
            "test_real_spacing_against_the_fake",
            "test_retry_after_is_waited_out",
            "test_ten_concurrent_identical_fetches_make_one_request",
            "test_title_search_sends_fielded_query",
            "test_tools_listed_with_descriptions",
            "test_unknown_category_suggests",
            "test_unknown_paper_is_not_found",
        }
    ),
    "test_tools_research": frozenset(
        {
            "test_category_trends_counts",
            "test_export_bibtex_one_request_and_missing",
            "test_references_citations_and_errors",
        }
    ),
    "test_workflows": frozenset(
        {
            "test_a_leading_minus_excludes_and_a_lone_one_is_refused",
            "test_a_page_without_an_arxiv_id_is_refused_with_what_to_paste",
            "test_ids_pasted_from_other_sites_work_in_every_tool_taking_one",
            "test_nothing_is_a_dead_end",
            "test_old_style_stamp_and_resource_uri_with_a_slash",
            "test_the_review_workflow_passes_session_id_to_every_tool",
        }
    ),
}
"""Slow tests (function names, every parametrisation) in otherwise quick modules."""


def is_slow(module: str, function: str) -> bool:
    """Whether the test `function` of tests/`module`.py is in the slow set."""
    return module in SLOW_MODULES or function in SLOW_TESTS.get(module, frozenset())
